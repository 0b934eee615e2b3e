import { MAX_DOCUMENT_BYTES } from '../documents/document-store.js';

/**
 * The largest MCP message a transport accepts: a stdio line, or an HTTP request body at
 * `/mcp` (so an attached `vmark mcp`, which relays stdio over HTTP, takes what a private one
 * does). A whole-document write carries the document JSON-escaped, so the bound leaves room
 * above the largest document. (The SDK's defaults, 10 MiB on stdio and 4 MiB over HTTP, would
 * refuse a 10 MB document.)
 */
export const MAX_MESSAGE_BYTES = 4 * MAX_DOCUMENT_BYTES;
