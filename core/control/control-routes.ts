import type { ApprovalDesk } from '../approvals/approval-entry.js';
import { ApprovalNotFoundError, UntilNavigationNotOfferedError } from '../approvals/approval-entry.js';
import { GrantNotFoundError, type GrantSelector, NotAnOriginError } from '../approvals/standing-grant.js';

/** What the control channel reaches inside the host. A new route group adds a member here. */
export interface ControlHandlers {
  readonly approvals: ApprovalDesk;
}

export interface ControlReply {
  readonly status: number;
  readonly body: unknown;
}

type Method = 'GET' | 'POST';

interface Route {
  readonly method: Method;
  /** Matched against the whole path; its capture groups are the route's parameters. */
  readonly path: RegExp;
  handle(params: readonly string[], handlers: ControlHandlers): ControlReply;
}

/** The control channel's API. Adding a command for a running host means adding a row. */
const ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: /^\/approvals$/,
    handle: (_params, { approvals }) => ok({ approvals: approvals.list() }),
  },
  {
    method: 'POST',
    path: /^\/approvals\/([A-Za-z0-9-]+)\/(allow|allow-until-navigation|deny)$/,
    handle: ([id, verb], { approvals }) => {
      const decision = verb === 'allow' || verb === 'allow-until-navigation' ? verb : 'deny';
      try {
        return ok({ approval: approvals.decide(id!, decision) });
      } catch (error) {
        if (error instanceof ApprovalNotFoundError) return failure(404, 'NOT_FOUND', error.message);
        if (error instanceof UntilNavigationNotOfferedError)
          return failure(409, 'NOT_OFFERED', error.message);
        throw error;
      }
    },
  },
  {
    method: 'GET',
    path: /^\/grants$/,
    handle: (_params, { approvals }) => ok({ grants: approvals.grants() }),
  },
  {
    method: 'POST',
    path: /^\/grants\/(grt-[A-Za-z0-9]+)\/revoke$/,
    handle: ([id], { approvals }) => revoke(approvals, { id: id! }),
  },
  {
    // The origin travels percent-encoded in one path segment (`https%3A%2F%2Fexample.com`).
    method: 'POST',
    path: /^\/grants\/origin\/([A-Za-z0-9%._~-]+)\/revoke$/,
    handle: ([encoded], { approvals }) => {
      let origin: string;
      try {
        origin = decodeURIComponent(encoded!);
      } catch {
        return failure(400, 'INVALID_ORIGIN', 'The origin is not percent-encoded text');
      }
      return revoke(approvals, { origin });
    },
  },
  {
    method: 'POST',
    path: /^\/grants\/revoke-all$/,
    handle: (_params, { approvals }) => revoke(approvals, { all: true }),
  },
];

function revoke(approvals: ApprovalDesk, selector: GrantSelector): ControlReply {
  try {
    return ok({ revoked: approvals.revoke(selector) });
  } catch (error) {
    if (error instanceof GrantNotFoundError) return failure(404, 'NOT_FOUND', error.message);
    if (error instanceof NotAnOriginError) return failure(400, 'INVALID_ORIGIN', error.message);
    throw error;
  }
}

/** Finds the route for a request and runs it; a failure inside a handler is a 500, not a crash. */
export function routeControlRequest(
  method: string,
  pathname: string,
  handlers: ControlHandlers,
): ControlReply {
  const matches = ROUTES.map((route) => ({ route, match: route.path.exec(pathname) })).filter(
    (candidate) => candidate.match !== null,
  );
  if (matches.length === 0) return failure(404, 'NOT_FOUND', `No such control route: ${pathname}`);
  const chosen = matches.find((candidate) => candidate.route.method === method);
  if (!chosen) {
    return failure(
      405,
      'METHOD_NOT_ALLOWED',
      `${pathname} accepts ${matches.map((c) => c.route.method).join(', ')}`,
    );
  }
  try {
    return chosen.route.handle(chosen.match!.slice(1), handlers);
  } catch (error) {
    return failure(500, 'INTERNAL', error instanceof Error ? error.message : String(error));
  }
}

function ok(body: unknown): ControlReply {
  return { status: 200, body };
}

export function failure(status: number, error: string, message: string): ControlReply {
  return { status, body: { error, message } };
}
