import { MAX_DOCUMENT_BYTES } from '../documents/document-store.js';

/**
 * The largest MCP message a transport accepts. A whole-document write carries the
 * document JSON-escaped, so the bound leaves room above the largest document.
 * (The SDK's stdio default of 10 MiB would drop the connection on a 10 MB document.)
 */
export const MAX_MESSAGE_BYTES = 4 * MAX_DOCUMENT_BYTES;
