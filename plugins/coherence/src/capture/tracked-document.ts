/**
 * Which documents the coherence layer tracks, and the identity each carries. Only Markdown
 * files the scan also walks (`.md`, outside `.git`, `node_modules`, `.vmark`) are tracked: a
 * JSON, YAML or plain-text file is never given front matter, and a file captured but never
 * scanned would miss the outside edits that make its edges stale.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { DocumentSnapshot } from '@vmark/sdk';
import {
  canonicalizeString,
  frontMatterBody,
  frontMatterHead,
  readIdentity,
} from '../kernel/identity/index.js';
import { isWalkedMarkdownPath } from '../kernel/scan/index.js';

const MARKDOWN_KIND = 'markdown';

// Required on the first front matter checked, not at activation: yaml is ~70 modules every host
// start would compile (ADR 88).
const require = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;

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

/** Characters read first for a document's front matter: nearly all fit; a longer one reads the whole text. */
const HEAD_CHARS = 64 * 1024;
const FIRST_HEAD_CHARS = 1024;

/**
 * `identityOf` the document's text, read from its head alone where the host offers one (host
 * API 1.12.0): a keystroke in a 10 MB note held as a rope does not build its whole text for this.
 */
export function identityOfDocument(
  document: Pick<DocumentSnapshot, 'content' | 'head'>,
  headChars = HEAD_CHARS,
): Identity | null {
  if (document.head === undefined) return identityOf(document.content);
  // The identity is read from the front matter alone: a head gives it when it is the whole
  // text, when there is no front matter, or when the front matter closes (line break included)
  // inside it. Read small first: most notes answer in their first few hundred characters.
  for (let length = Math.min(FIRST_HEAD_CHARS, headChars); ; length = Math.min(length * 16, headChars)) {
    const head = document.head(length);
    if (head.length < length || (head.length >= 3 && !head.startsWith('---'))) return identityOf(head);
    const frontMatter = frontMatterHead(head);
    if (frontMatter !== '' && frontMatter.length < head.length) return identityOf(head);
    if (length === headChars) return identityOf(document.content);
  }
}

/**
 * Why the host must not add identity lines to this text, or null: front matter that is not
 * valid YAML (line-based edits would build on it, and a person must look at it first).
 */
export function identityProblem(text: string): string | null {
  const body = frontMatterBody(text);
  if (body === null) return null;
  const parsed = (yaml ??= require('yaml') as typeof Yaml).parseDocument(body, { prettyErrors: false });
  const error = parsed.errors[0];
  return error === undefined ? null : `its front matter is not valid YAML (${error.message.split('\n')[0]})`;
}
