/**
 * The one error this module throws. The `workflow` tool turns it into the seed's
 * `INVALID_PATCH` envelope; `index` says which patch of the batch was at fault, and is
 * absent when the whole request is (not an array, or a document that does not parse).
 */
export class PatchError extends Error {
  override readonly name = 'PatchError';

  constructor(
    message: string,
    readonly index?: number,
  ) {
    super(message);
  }
}
