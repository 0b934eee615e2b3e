/**
 * `session_save` / `session_load` (vmark-notes §3.1, ADR-A7): a tab's localStorage and the
 * cookies of its committed origin, kept in the OS keychain under a handle the AI names. The AI
 * never receives a value: saving answers counts, loading answers that it loaded. A session
 * loads only onto a page of the origin it was saved from. Each call is approved on its own
 * (operation `session`, never a standing grant), bound to its handle and origin.
 */
import type { Approvals, ToolCall } from '@vmark/sdk';
import { TokenError, z } from '@vmark/sdk';
import type { Cookie } from 'playwright-core';
import { approvalDenied, approvalRequired } from '../approval-refusal.js';
import type { BrowserTab } from '../tabs/browser-tab.js';
import { askNoting } from '../tabs/note-activity.js';
import type { Keychain } from './keychain.js';

/** What the keychain holds for a handle; read back through the schema, since anything may have written it. */
const storedSession = z.object({
  format: z.literal(1),
  origin: z.string(),
  localStorage: z.record(z.string(), z.string()),
  cookies: z.array(
    z.object({
      name: z.string(),
      value: z.string(),
      domain: z.string(),
      path: z.string(),
      expires: z.number(),
      httpOnly: z.boolean(),
      secure: z.boolean(),
      sameSite: z.enum(['Strict', 'Lax', 'None']),
    }),
  ),
});
type StoredSession = z.infer<typeof storedSession>;

/** More than this is not a session but a dump: refused rather than stored. */
const MAX_STORED_BYTES = 1024 * 1024;

const READ_STORAGE = `() => {
  const out = {};
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key !== null) out[key] = localStorage.getItem(key) ?? '';
  }
  return out;
}`;

const WRITE_STORAGE = `(items) => {
  for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
  return Object.keys(items).length;
}`;

export class BrowserSessions {
  constructor(
    private readonly keychain: Keychain,
    private readonly approvals: Approvals,
  ) {}

  async save(
    tab: BrowserTab,
    handle: string,
    call: ToolCall,
  ): Promise<{ saved: true; handle: string; origin: string; localStorage: number; cookies: number }> {
    const origin = committedOrigin(tab, 'session_save');
    await this.#approve(tab, 'save', handle, origin, call);
    const localStorage = await tab.world.evaluate<Record<string, string>>(READ_STORAGE);
    const cookies = await tab.context.cookies(origin);
    const stored: StoredSession = { format: 1, origin, localStorage, cookies: cookies.map(storedCookie) };
    const json = JSON.stringify(stored);
    if (Buffer.byteLength(json) > MAX_STORED_BYTES) {
      throw new TokenError(
        'SESSION_TOO_LARGE',
        `the session of ${origin} is larger than ${MAX_STORED_BYTES} bytes; it was not saved`,
      );
    }
    await this.keychain.put(handle, json);
    return {
      saved: true,
      handle,
      origin,
      localStorage: Object.keys(localStorage).length,
      cookies: cookies.length,
    };
  }

  async load(tab: BrowserTab, handle: string, call: ToolCall): Promise<{ loaded: true; handle: string }> {
    const origin = committedOrigin(tab, 'session_load');
    const stored = parseStored(await this.keychain.get(handle));
    if (stored === null) {
      throw new TokenError('SESSION_NOT_FOUND', `no session is saved under "${handle}"`, { handle });
    }
    if (stored.origin !== origin) {
      throw new TokenError(
        'SESSION_ORIGIN_MISMATCH',
        `the session "${handle}" was saved from another origin; it loads only onto a page of that origin`,
        { handle },
      );
    }
    await this.#approve(tab, 'load', handle, origin, call);
    await tab.world.evaluate(WRITE_STORAGE, stored.localStorage);
    if (stored.cookies.length > 0) await tab.context.addCookies([...stored.cookies]);
    return { loaded: true, handle };
  }

  async #approve(
    tab: BrowserTab,
    verb: 'save' | 'load',
    handle: string,
    origin: string,
    call: ToolCall,
  ): Promise<void> {
    const subject =
      verb === 'save'
        ? `save the session of ${origin} as "${handle}"`
        : `load the session "${handle}" into ${origin}`;
    const outcome = await askNoting(
      this.approvals,
      call,
      tab,
      { operation: 'session', subject, origin, grantable: false },
      verb === 'save' ? 'save the session (cookies and storage)' : 'load a saved session',
    );
    if (outcome.decision === 'allowed') return;
    if (outcome.decision === 'denied') throw approvalDenied('session', origin, outcome.requestId);
    throw approvalRequired('session', origin, outcome.requestId);
  }
}

/** The origin of the committed page: http(s) only, since a session belongs to a site. */
function committedOrigin(tab: BrowserTab, action: string): string {
  let url: URL;
  try {
    url = new URL(tab.page.url());
  } catch {
    url = new URL('about:blank');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TokenError('SESSION_NO_ORIGIN', `${action} needs a tab showing an http(s) page`, {
      tabId: tab.id,
    });
  }
  return url.origin;
}

function parseStored(json: string | null): StoredSession | null {
  if (json === null) return null;
  try {
    const parsed = storedSession.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function storedCookie(cookie: Cookie): StoredSession['cookies'][number] {
  const { name, value, domain, path, expires, httpOnly, secure, sameSite } = cookie;
  return { name, value, domain, path, expires, httpOnly, secure, sameSite };
}
