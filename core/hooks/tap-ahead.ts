import type { Disposable, DocumentWrittenEvent, HostHooks } from '@vmark/sdk';
import { tapDisposable } from './untap.js';

/** Below tapable's default stage (0), at which every plugin and the checkpoint recorder tap. */
const AHEAD_STAGE = -100;

/**
 * A `documentWritten` tap that runs before the taps made at the default stage, whenever it was
 * made: for the host's forwarding of a change to its editors, which the others' work (a
 * checkpoint queued, a capture, an index) need not hold up (ADR 85).
 */
export function tapDocumentWrittenAhead(
  hooks: HostHooks,
  name: string,
  fn: (event: DocumentWrittenEvent) => void,
): Disposable {
  const hook = hooks.documentWritten;
  return tapDisposable(hook, () => hook.tap({ name, stage: AHEAD_STAGE }, fn), fn);
}
