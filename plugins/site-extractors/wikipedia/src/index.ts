import { definePlugin } from '@vmark/sdk';
import { wikipediaExtractor } from './wikipedia-extractor.js';

export default definePlugin({
  activate(context) {
    context.contribute('siteExtractors', wikipediaExtractor);
  },
});
