import type { Disposable, HostHooks } from '@vmark/sdk';
import { DisposableStore } from '@vmark/sdk';
import { pluginHooks } from '../hooks/plugin-hooks.js';
import { currentCall } from './call-scope.js';

/** A write at least this large (UTF-8) reports its stages to the calling client. */
export const LARGE_WRITE_BYTES = 1024 * 1024;

/** The stages of a write, as `progress` of `STAGES`: taken in, on its way to disk, on disk. */
const STAGES = 3;

/**
 * Whatever tool writes a large document (`document.write`, a transform, a workflow patch), the
 * host reports the write's stages as the calling tool call's progress: from the document hooks,
 * which the store calls within the call (see `CallScope`). Changes made outside a tool call (the
 * editor, a reload from disk) report nothing.
 */
export function reportLargeWrites(hooks: HostHooks): Disposable {
  const taps = pluginHooks(hooks, 'write-progress');
  // `text` is read only for a call that asked for progress: an editor's keystroke does not build a
  // rope's text for it, and a write without a token is not measured (its UTF-8 size, twice before
  // the editors hear of it, ~1 ms each at 1 MB).
  const stage = (text: { readonly content: string }, done: number, message: (size: string) => string) => {
    const call = currentCall();
    if (call === undefined || !call.progress.reporting) return;
    const content = text.content;
    // A UTF-16 unit is at most 3 bytes of UTF-8: most texts are told small without encoding them.
    if (content.length * 3 < LARGE_WRITE_BYTES) return;
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes < LARGE_WRITE_BYTES) return;
    call.progress.report(done, STAGES, message(`${(bytes / 1024 / 1024).toFixed(1)} MiB`));
  };
  const store = new DisposableStore();
  store.add(
    taps.tapWaterfall('beforeDocumentWrite', (proposal) => {
      stage(proposal, 1, (size) => `staging ${size}`);
      return proposal;
    }),
  );
  store.add(
    taps.tapWaterfall('beforeDocumentSave', (proposal) => {
      stage(proposal, 2, (size) => `saving ${size} to disk`);
      return proposal;
    }),
  );
  store.add(taps.tap('documentSaved', ({ document }) => stage(document, 3, (size) => `saved ${size}`)));
  return store;
}
