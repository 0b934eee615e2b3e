import { escapedCodePoint, isDeceptive } from '../protocol/deceptive-characters.js';
import type { ApprovalRequest, ToolCaller } from '@vmark/sdk';

/**
 * A subject as one unambiguous double-quoted string: where it starts and ends,
 * quotes, newlines and invisible characters are all visible (JSON.stringify escapes
 * C0 controls, the protocol's list of deceptive characters the rest).
 */
export function quoteSubject(subject: string): string {
  let out = '';
  for (const char of JSON.stringify(subject)) {
    const code = char.codePointAt(0)!;
    out += isDeceptive(code) ? escapedCodePoint(code) : char;
  }
  return out;
}

/** What a person deciding is shown of a request: the operation, its subject, and the optional notes that were given. */
export type ShownRequest = Pick<
  ApprovalRequest,
  'operation' | 'subject' | 'origin' | 'requested' | 'warning' | 'detail'
>;

/** The shown part of `request`, without the notes it does not have (not even as `undefined`: it goes out as JSON). */
export function shownRequest(request: ApprovalRequest): ShownRequest {
  return {
    operation: request.operation,
    subject: request.subject,
    ...(request.origin === undefined ? {} : { origin: request.origin }),
    ...(request.requested === undefined ? {} : { requested: request.requested }),
    ...(request.warning === undefined ? {} : { warning: request.warning }),
    ...(request.detail === undefined ? {} : { detail: request.detail }),
  };
}

/** Who asks, as the broker keeps it and `vmark approvals list` receives it. */
export type ApprovalAsker = Pick<ToolCaller, 'connectionId' | 'clientName' | 'principal'>;

/**
 * Which client asks, for a person deciding: the name it gives itself (quoted: the
 * client chose it, and may choose one that looks like another's), the connection an
 * answer will hold for, and the installed client its credential names, if any.
 */
export function describeAsker(asker: ApprovalAsker): string {
  const installed =
    asker.principal === null
      ? 'not an installed client'
      : `installed client ${quoteSubject(asker.principal)}`;
  return `${quoteSubject(asker.clientName)} (connection ${asker.connectionId}, ${installed})`;
}

/**
 * The question put to a person: the operation and its exact subject, whole (for
 * `execute_js` that is the full script: a person cannot allow what they cannot read),
 * what the client wrote when that differs, what else it does, why it cannot happen if it
 * cannot, and who asks.
 */
export function approvalQuestion(request: ApprovalRequest, asker: ApprovalAsker): string {
  const requested = request.requested === undefined ? '' : ` (asked as ${quoteSubject(request.requested)})`;
  const origin = request.origin === undefined ? '' : ` (origin ${quoteSubject(request.origin)})`;
  const warning = request.warning === undefined ? '' : ` Note: ${request.warning}`;
  const detail = request.detail === undefined ? '' : ` ${request.detail}`;
  return (
    `VMark: allow ${request.operation} on ${quoteSubject(request.subject)}${requested}${origin}?` +
    `${detail}${warning} Asked by ${describeAsker(asker)}.`
  );
}
