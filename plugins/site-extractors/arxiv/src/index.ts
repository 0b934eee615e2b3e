import { definePlugin } from '@vmark/sdk';
import { arxivExtractor } from './arxiv-extractor.js';

export default definePlugin({
  activate(context) {
    context.contribute('siteExtractors', arxivExtractor);
  },
});
