import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorEnvelope, TokenError } from '@vmark/sdk';

/**
 * A domain error as the seed returns it: `isError`, the envelope as
 * `structuredContent`, and text an AI can act on. STALE gets the original's
 * explicit re-read instruction, since writing the stale content back loses work.
 */
/** Data appended to a token error's text at most (vmark-notes §1.2). */
const TOKEN_DATA_CHARS = 4000;

/** A typed error token: `TOKEN: message`, then the data as JSON; the same in `structuredContent`. */
export function renderTokenError(error: TokenError): CallToolResult {
  const data =
    Object.keys(error.data).length > 0 ? `\n${JSON.stringify(error.data).slice(0, TOKEN_DATA_CHARS)}` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.token}: ${error.message}${data}` }],
    structuredContent: { error: error.token, message: error.message, ...error.data },
  };
}

export function renderDomainError(envelope: ErrorEnvelope): CallToolResult {
  const raw = JSON.stringify(envelope);
  // A save refused over a change on disk says what happened in its own message.
  const revisionMismatch = envelope.error === 'STALE' && envelope.conflict === undefined;
  const text =
    revisionMismatch && typeof envelope.current_revision === 'string'
      ? `STALE: the document changed since your last read (current_revision: ${envelope.current_revision}). ` +
        'Re-read with `document.read` (or `selection.get`) and retry with the new revision — ' +
        `do not write the stale content back. Response: ${raw}`
      : raw;
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { ...envelope } };
}
