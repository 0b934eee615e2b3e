/**
 * Which gate a loaded page is, if any (vmark-notes §5.1): a human-verification challenge, a
 * consent interstitial, a sign-in wall or a rate limit, from the signals the isolated world
 * collected. Precision comes before recall: a rendered challenge widget, or on a short page
 * several independent signals, and never a single word — a shop page showing "$429", a
 * "Protected by Cloudflare" footer or an article about CAPTCHAs is no gate. Advisory only:
 * the answer changes what the AI is told, never what it may do.
 */

export type GateKind = 'challenge' | 'consent' | 'login-required' | 'rate-limited';

export interface Gate {
  readonly kind: GateKind;
  readonly hint: string;
}

/** What the isolated world saw of the page (`collectGateSignals`). */
export interface GateSignals {
  readonly url: string;
  readonly title: string;
  /** The first 4000 characters of the page's visible text, open shadow roots included. */
  readonly textHead: string;
  /** A rendered challenge widget (reCAPTCHA, hCaptcha, Turnstile, a challenge form). */
  readonly challengeWidget: boolean;
  /** A visible password field. */
  readonly passwordField: boolean;
}

/** The original's hints, verbatim: each one points the AI at the person, never around the gate. */
export const GATE_HINTS: Readonly<Record<GateKind, string>> = {
  challenge:
    'the page is showing a human-verification challenge — tell the user and wait; do not attempt to solve or bypass it',
  consent:
    "a consent interstitial is blocking the content — ask the user how to proceed; with their agreement the dialog's buttons are ordinary act targets",
  'login-required':
    'the page wants the user to sign in — stop and ask them; a previously saved session (session_load) may help if they approve it',
  'rate-limited': 'the site is rate-limiting — stop retrying and tell the user; more attempts make it worse',
};

/** A page this short is an interstitial, not content that merely mentions the words. */
const TERSE_BELOW = 1500;

const CHALLENGE_TITLE =
  /just a moment|attention required|verify you are|are you a robot|checking your browser/;
const CHALLENGE_TEXT =
  /verify (that )?you are human|complete the (security )?check|i'?m not a robot|press and hold|unusual traffic|automated queries/;
const CONSENT_PATH = /(^|\/)consent(\/|$)/;
const CONSENT_WORDS = /before you continue|accept all|cookie|consent/;
const LOGIN_TITLE = /sign in|log in|login|登录|ログイン|iniciar sesi/i;
const LOGIN_PATH = /(^|\/)((sign|log)-?in)(\/|$)/;
const RATE_TITLE = /too many requests|rate limit/;
const RATE_TEXT = /too many requests|rate.?limit(ed)?/;
const TRY_AGAIN = /try again/;
const STATUS_429 = /\b429\b/;

export function classifyGate(signals: GateSignals): Gate | null {
  const kind = gateKind(signals);
  return kind === null ? null : { kind, hint: GATE_HINTS[kind] };
}

function gateKind(signals: GateSignals): GateKind | null {
  const title = signals.title.toLowerCase();
  const text = signals.textHead.toLowerCase();
  const terse = signals.textHead.trim().length < TERSE_BELOW;
  const { hostname, pathname } = parts(signals.url);

  if (signals.challengeWidget) return 'challenge';
  if (CHALLENGE_TITLE.test(title) && CHALLENGE_TEXT.test(text) && terse) return 'challenge';

  const consentPlace = hostname.startsWith('consent.') || CONSENT_PATH.test(pathname);
  if (consentPlace && CONSENT_WORDS.test(`${title}\n${text}`)) return 'consent';

  if (signals.passwordField && (LOGIN_TITLE.test(title) || LOGIN_PATH.test(pathname)))
    return 'login-required';

  if (terse) {
    const signalsSeen = [
      RATE_TITLE.test(title),
      RATE_TEXT.test(text) && TRY_AGAIN.test(text),
      STATUS_429.test(title),
    ].filter(Boolean).length;
    if (signalsSeen >= 2) return 'rate-limited';
  }
  return null;
}

/** The URL's host and path; an unparseable URL has neither (so no URL rule can match). */
function parts(raw: string): { hostname: string; pathname: string } {
  try {
    const url = new URL(raw);
    return { hostname: url.hostname.toLowerCase(), pathname: url.pathname };
  } catch {
    return { hostname: '', pathname: '' };
  }
}
