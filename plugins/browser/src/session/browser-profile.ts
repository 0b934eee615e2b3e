/**
 * `open {profile}`: a named, persistent context of its own (credentials by reference, vmark-notes
 * §3.1) — the AI names it and never sees what it holds. Using one lends the AI whatever the
 * person signed in to there, so each use is approved on its own (operation `session`, never
 * standing), before any tab is made.
 */
import { type Approvals, type ToolCall, z } from '@vmark/sdk';
import { approvalDenied, approvalRequired } from '../approval-refusal.js';
import { originForAgent, urlForAgent } from '../url/redact.js';

/** A profile's name: `[A-Za-z0-9._-]`, 1–64 characters after trimming (vmark-notes §1.1). */
export const PROFILE = /^[A-Za-z0-9._-]{1,64}$/;

const MESSAGE = "open's 'profile' must match [A-Za-z0-9._-] (1..64)";

export const profileArg = () =>
  z.string({ error: MESSAGE }).trim().regex(PROFILE, { error: MESSAGE }).optional();

export async function approveProfile(
  approvals: Approvals,
  call: ToolCall,
  profile: string,
  url: string,
): Promise<void> {
  const shown = urlForAgent(url);
  const outcome = await approvals.request(
    {
      operation: 'session',
      subject: `open ${shown} in the browser profile "${profile}", with what is signed in there`,
      origin: originForAgent(url),
      grantable: false,
    },
    call,
  );
  if (outcome.decision === 'allowed') return;
  if (outcome.decision === 'denied') throw approvalDenied('session', shown, outcome.requestId);
  throw approvalRequired('session', shown, outcome.requestId);
}
