/**
 * Notes an entry in a tab's activity (ADR 53, ADR 57): listed at once, its picture — a small JPEG
 * of the viewport, captured by the browser (CDP `Page.captureScreenshot`: no DOM is touched, so an
 * act being watched sees nothing of it) — attached when it is ready. The call that made the entry
 * never waits for the picture, and never fails for it.
 */
import {
  type ApprovalOutcome,
  type ApprovalRequest,
  type Approvals,
  isRefusal,
  isTokenError,
  type ToolCall,
} from '@vmark/sdk';
import { TIMED_OUT, within } from '../time-bound.js';
import type { BrowserTab } from './browser-tab.js';
import type { ActivityEntry, Shot } from './tab-activity.js';

const PICTURE_MS = 1500;
const PICTURE_QUALITY = 40;

export function noteActivity(
  tab: BrowserTab,
  entry: Omit<ActivityEntry, 'id' | 'at' | 'url'>,
  key?: string,
): void {
  if (tab.closed !== null) return;
  tab.activity.add(
    { ...entry, url: tab.url },
    { generation: tab.generation, ...(key === undefined ? {} : { key }) },
  );
  void tab.activity.takePictures(() => viewportPicture(tab));
}

/** The viewport now, and the generation it shows; no generation when the page changed meanwhile. */
async function viewportPicture(tab: BrowserTab): Promise<Shot> {
  const generation = tab.generation;
  const capture = tab.world.session().then((session) =>
    session.send('Page.captureScreenshot', {
      format: 'jpeg',
      quality: PICTURE_QUALITY,
      captureBeyondViewport: false,
      optimizeForSpeed: true,
    }),
  );
  const taken = await within(capture, PICTURE_MS);
  if (taken === TIMED_OUT || taken.data.length === 0) return { picture: null, generation: null };
  const same = tab.closed === null && tab.generation === generation;
  return same
    ? { picture: Buffer.from(taken.data, 'base64'), generation }
    : { picture: null, generation: null };
}

/** What an act or navigation that threw comes to in the activity: the person's answer, or the token. */
export function refusalOf(error: unknown): string {
  if (isRefusal(error) && error.structured.needsApproval === true)
    return error.structured.denied === true ? 'approval denied' : 'approval asked, not answered yet';
  return isTokenError(error) ? error.token : 'error';
}

/** Whether a standing grant answered, and whether the person's answer made one. */
export interface AnswerContext {
  /** A standing grant covered the request before it was made: nobody was asked. */
  readonly standing: boolean;
  /** The origin the grant is for, as the person gave it. */
  readonly origin: string;
  /** Asked after an allowance: whether a standing grant covers it now ("Allow on this site"). */
  readonly grantedNow: () => boolean;
}

/** A person's answer (or a standing grant's) in words, for the approval's own entry. */
export function answerWords(outcome: ApprovalOutcome, context: AnswerContext): string {
  switch (outcome.decision) {
    case 'pending':
      return 'asked, not answered yet';
    case 'denied':
      return 'denied';
    case 'allowed':
      if (context.standing) return `allowed by your standing grant for ${context.origin}`;
      if (outcome.lasts === 'until-navigation') return 'allowed until navigation';
      return context.grantedNow() ? 'allowed on this site' : 'allowed once';
  }
}

/**
 * The approval's own entry: what was asked (in the activity's words — never a typed text or a
 * script) and how it was answered. An answer is noted once per request: the same request asked
 * again (a retry, a run waiting on it) with the same answer is not a new entry.
 */
export function noteApproval(tab: BrowserTab, what: string, requestId: string, answer: string): void {
  // "withdrawn: …" is one answer, whoever noticed it first.
  noteActivity(
    tab,
    { kind: 'approval', what, outcome: answer },
    `approval ${requestId} ${answer.split(':')[0]}`,
  );
}

/**
 * Asks a person about something in this tab and notes the answer as its own entry: "allowed
 * once", "allowed on this site", "allowed until navigation", "denied", "asked, not answered yet",
 * or — when a standing grant answered and nobody was asked — "allowed by your standing grant for
 * <origin>". `noted` is what was asked in the activity's words.
 */
export async function askNoting(
  approvals: Approvals,
  call: ToolCall,
  tab: BrowserTab,
  request: ApprovalRequest,
  noted: string,
): Promise<ApprovalOutcome> {
  const { operation, origin } = request;
  const covered = () =>
    request.grantable &&
    origin !== undefined &&
    (approvals.hasStandingGrant?.({ operation, origin }, call) ?? false);
  const standing = covered();
  const outcome = await approvals.request(request, call);
  noteApproval(
    tab,
    noted,
    outcome.requestId,
    answerWords(outcome, { standing, origin: origin ?? '', grantedNow: covered }),
  );
  return outcome;
}
