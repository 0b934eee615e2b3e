import { definePlugin } from '@vmark/sdk';
import { mdnExtractor } from './mdn-extractor.js';

export default definePlugin({
  activate(context) {
    context.contribute('siteExtractors', mdnExtractor);
  },
});
