// Preloaded into a vmark process (NODE_OPTIONS=--import): when it exits, writes the CommonJS
// modules it loaded to $VMARK_TEST_MODULES_OUT, one path a line. An ESM import of a CommonJS
// package goes through the same cache, so a package loaded either way shows here.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { cache } = createRequire(import.meta.url);

process.on('exit', () => {
  writeFileSync(process.env.VMARK_TEST_MODULES_OUT, Object.keys(cache).join('\n'));
});
