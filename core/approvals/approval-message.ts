import type { ApprovalRequest } from '@vmark/sdk';

/**
 * Characters that would let a subject look like something it is not: C1
 * controls, bidirectional marks, overrides and isolates (a path that reads
 * backwards), zero-width characters and line or paragraph separators.
 * JSON.stringify escapes C0 controls but leaves these alone.
 */
function isDeceptive(code: number): boolean {
  return (
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/**
 * A subject as one unambiguous double-quoted string: where it starts and ends,
 * quotes, newlines and invisible characters are all visible.
 */
export function quoteSubject(subject: string): string {
  let out = '';
  for (const char of JSON.stringify(subject)) {
    const code = char.codePointAt(0)!;
    out += isDeceptive(code) ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

/**
 * The question put to a person: the operation and its exact subject, whole (for
 * `execute_js` that is the full script: a person cannot allow what they cannot read).
 */
export function approvalQuestion(request: ApprovalRequest): string {
  const origin = request.origin === undefined ? '' : ` (origin ${quoteSubject(request.origin)})`;
  return `VMark: allow ${request.operation} on ${quoteSubject(request.subject)}${origin}?`;
}
