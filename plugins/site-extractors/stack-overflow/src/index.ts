import { definePlugin } from '@vmark/sdk';
import { stackOverflowExtractor } from './stack-overflow-extractor.js';

export default definePlugin({
  activate(context) {
    context.contribute('siteExtractors', stackOverflowExtractor);
  },
});
