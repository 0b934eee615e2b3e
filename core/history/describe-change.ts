/**
 * The history's description of a change whose origin brought none, in the
 * original's words for `document.write`: "Wrote document (+N chars, was A, now B)".
 * Lengths are UTF-16 code units, the offsets editors and MCP clients count in.
 */
export function describeChange(tool: string, before: string, after: string): string {
  const sizes = sizeChange(before, after);
  return tool === 'document.write' ? `Wrote document (${sizes})` : `${tool} (${sizes})`;
}

/** `+N chars, was A, now B`; the sign is always written, so a shrink and a growth read apart at a glance. */
export function sizeChange(before: string, after: string): string {
  const delta = after.length - before.length;
  return `${delta < 0 ? delta : `+${delta}`} chars, was ${before.length}, now ${after.length}`;
}
