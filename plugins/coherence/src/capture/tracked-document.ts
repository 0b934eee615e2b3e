/**
 * Which documents the coherence layer tracks, and the identity each carries. Only Markdown
 * files the scan also walks (`.md`, outside `.git`, `node_modules`, `.vmark`) are tracked: a
 * JSON, YAML or plain-text file is never given front matter, and a file captured but never
 * scanned would miss the outside edits that make its edges stale.
 */
import { parseDocument } from 'yaml';
import type { DocumentSnapshot } from '@vmark/sdk';
import {
  canonicalizeString,
  frontMatterBody,
  frontMatterHead,
  readIdentity,
} from '../kernel/identity/index.js';
import { isWalkedMarkdownPath } from '../kernel/scan/index.js';

const MARKDOWN_KIND = 'markdown';

export interface Identity {
  readonly id: string;
  readonly schema: string | null;
}

/** A Markdown document at a workspace-relative path the scan walks. */
export function isTrackedDocument(
  document: Pick<DocumentSnapshot, 'kind' | 'filePath'>,
  relative: string,
): boolean {
  return document.kind === MARKDOWN_KIND && document.filePath !== null && isWalkedMarkdownPath(relative);
}

/** A Markdown document at all: the first filter, before the workspace is looked up. */
export function isMarkdownFile(document: Pick<DocumentSnapshot, 'kind' | 'filePath'>): boolean {
  return document.kind === MARKDOWN_KIND && document.filePath !== null;
}

export function identityOf(text: string): Identity | null {
  // Read on every change of every open note, a keystroke included: the head alone holds it.
  const reading = readIdentity(canonicalizeString(frontMatterHead(text)));
  return reading.id === null ? null : { id: reading.id, schema: reading.schema };
}

/**
 * Why the host must not add identity lines to this text, or null: front matter that is not
 * valid YAML (line-based edits would build on it, and a person must look at it first).
 */
export function identityProblem(text: string): string | null {
  const body = frontMatterBody(text);
  if (body === null) return null;
  const parsed = parseDocument(body, { prettyErrors: false });
  const error = parsed.errors[0];
  return error === undefined ? null : `its front matter is not valid YAML (${error.message.split('\n')[0]})`;
}
