import { definePlugin } from '@vmark/sdk';
import { hackerNewsExtractor } from './hacker-news-extractor.js';

export default definePlugin({
  activate(context) {
    context.contribute('siteExtractors', hackerNewsExtractor);
  },
});
