/**
 * `fullwidthBrackets` (off by default): `[重点]` becomes `【重点】` when the bracketed
 * text starts with a CJK letter. Real link syntax never reaches this rule (its brackets
 * are protected regions); the lookarounds still refuse anything shaped like a link —
 * `](`, `][`, `]:`, `![`, `][label]` — in case a bracket pair was left as text.
 */
import { CJK } from './patterns.js';

const CJK_BRACKETS = new RegExp(`(?<![\\]!])\\[(${CJK}(?:\\\\.|[^\\[\\]\\\\\\n])*)\\](?![(\\[:])`, 'gu');

export function normalizeFullwidthBrackets(text: string): string {
  if (!text.includes('[')) return text;
  return text.replace(CJK_BRACKETS, '【$1】');
}
