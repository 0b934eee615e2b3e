import path from 'node:path';
import { NoKindError } from '../../documents/kind-registry.js';
import { NotTextError } from '../../documents/read-text-file.js';
import type { UiPlugin } from '../../protocol/panel-protocol.js';
import type { RefusalJson, RefusalReason } from '../../protocol/protocol.js';

/** A refusal the UI server words itself: the seed's code and message, and the reason for the person. */
export class UiRefusal extends Error {
  constructor(readonly refusal: RefusalJson) {
    super(refusal.message);
  }
}

/** Image formats by extension: a file vmark will not open as text, said to be a picture. */
const PICTURE = /\.(?:png|jpe?g|gif|webp|avif|heic|heif|bmp|tiff?|ico)$/i;

/**
 * Why a file the person clicked did not open, with what the page needs to say it in
 * words: a file that is not text, or one no running plugin opens (and which plugins,
 * turned off or failed, would). Any other error is returned as it was.
 */
export function explainOpenFailure(error: unknown, filePath: string, plugins: readonly UiPlugin[]): unknown {
  const fileName = path.basename(filePath);
  let reason: RefusalReason;
  if (error instanceof NotTextError) {
    reason = { kind: 'not-text', fileName, picture: PICTURE.test(fileName) };
  } else if (error instanceof NoKindError) {
    const stopped = plugins
      .filter((p) => p.kinds.length > 0 && !p.active)
      .map(({ id, name, enabled, kinds }) => ({ id, name, enabled, kinds }));
    reason = { kind: 'no-plugin', fileName, plugins: stopped };
  } else {
    return error;
  }
  return new UiRefusal({ code: error.code, message: error.message, reason });
}
