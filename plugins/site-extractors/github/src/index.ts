import { definePlugin } from '@vmark/sdk';
import { githubExtractor } from './github-extractor.js';

export default definePlugin({
  activate(context) {
    context.contribute('siteExtractors', githubExtractor);
  },
});
