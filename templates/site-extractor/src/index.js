// The plugin's entry: it only wires the extractor into the browser's reader mode.
import { definePlugin } from '@vmark/sdk';
import { exampleDocsExtractor } from './example-docs-extractor.js';

export default definePlugin({
  activate(context) {
    context.contribute('siteExtractors', exampleDocsExtractor);
  },
});
