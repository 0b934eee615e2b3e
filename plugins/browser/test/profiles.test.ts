import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { personHostForFile } from './person-desk.js';

/*
 * Credentials by reference: `open {profile}` lends the AI a named, persistent context without
 * showing what it holds, and only after a person allowed that use of it; a session approval
 * names its handle. The test stands for the person (the broker's UI approver), as act.test.ts.
 */

const rig = personHostForFile((server) => {
  server.html('/page', '<title>page</title><p>a page</p>');
  server.route('/sign-in', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'sid=signed-in; path=/; max-age=3600' });
    res.end('<title>signed in</title><p>signed in</p>');
  });
});

const url = (route: string) => `http://a.test:${rig.server.port}${route}`;

/** Opens `route` (in `profile`, if given) and closes the tab again; the cookie the page was sent. */
async function visit(route: string, profile?: string): Promise<string | undefined> {
  const before = rig.server.hits.length;
  const opened = await rig.kit.call('browser', {
    action: 'open',
    url: url(route),
    ...(profile ? { profile } : {}),
  });
  expect(opened.isError, opened.text).toBe(false);
  await rig.kit.call('browser', { action: 'close', tabId: (opened.data as { tabId: string }).tabId });
  return rig.server.hits.slice(before).find((hit) => hit.path === route)?.cookie;
}

describe('open {profile}', () => {
  it('asks a person at each use, and keeps each profile apart from the sandbox and from the others', async () => {
    await visit('/sign-in', 'work-1');
    expect(rig.person.asked).toHaveLength(1);
    expect(rig.person.asked[0]!.request).toMatchObject({ operation: 'session', origin: url('') });
    expect(rig.person.asked[0]!.request.subject).toContain('"work-1"');
    // The same use again is rig.person.asked again: an approval is for one use.
    expect(await visit('/page', 'work-1')).toBe('sid=signed-in');
    expect(await visit('/page', 'work-1')).toBe('sid=signed-in');
    expect(rig.person.asked).toHaveLength(3);
    // Neither the sandbox nor another profile sees what work-1 holds.
    expect(await visit('/page')).toBeUndefined();
    expect(rig.person.asked).toHaveLength(3);
    expect(await visit('/page', 'other')).toBeUndefined();
    expect(existsSync(path.join(rig.kit.home, 'browser', 'profiles', 'p-work-1'))).toBe(true);
  });

  it('makes no tab and loads nothing when the person declines, or until someone allows', async () => {
    const before = rig.server.count('/page');
    rig.person.answer = 'deny';
    const declined = await rig.kit.call('browser', { action: 'open', url: url('/page'), profile: 'work-1' });
    expect(declined.text).toMatch(/^the user declined 'session' on /);
    rig.person.answer = 'nobody';
    const waiting = await rig.kit.call('browser', { action: 'open', url: url('/page'), profile: 'work-1' });
    expect(waiting.text).toMatch(/^approval required: 'session' on /);
    expect(rig.server.count('/page')).toBe(before);
    rig.person.decide((waiting.data as { requestId: string }).requestId, 'allow');
    expect(await visit('/page', 'work-1')).toBe('sid=signed-in');
    expect(rig.server.count('/page')).toBe(before + 1);
  });

  it('refuses a name outside [A-Za-z0-9._-] (1..64) before asking anyone, and keeps `..` inside its folder', async () => {
    const before = rig.server.hits.length;
    for (const profile of ['', '   ', 'a/b', '../x', 'x'.repeat(65), 'naïve', 7]) {
      const out = await rig.kit.call('browser', { action: 'open', url: url('/page'), profile });
      expect(out.isError, JSON.stringify(profile)).toBe(true);
      expect(out.text).toContain("open's 'profile' must match [A-Za-z0-9._-] (1..64)");
    }
    expect(rig.person.asked).toHaveLength(0);
    expect(rig.server.hits.length).toBe(before);
    // Trimmed, as the original's schema does; `..` is a name like any other.
    rig.person.answer = 'deny';
    await rig.kit.call('browser', { action: 'open', url: url('/page'), profile: ' work-1 ' });
    expect(rig.person.asked.at(-1)!.request.subject).toContain('"work-1"');
    rig.person.answer = 'allow';
    await visit('/page', '..');
    expect(existsSync(path.join(rig.kit.home, 'browser', 'profiles', 'p-..'))).toBe(true);
  });
});

describe('open {profile} at the tab limit', () => {
  it('is refused with TAB_LIMIT before anyone is asked', async () => {
    const tabs: string[] = [];
    for (let i = 0; i < 8; i++) {
      const opened = await rig.kit.call('browser', { action: 'open', url: url('/page') });
      tabs.push((opened.data as { tabId: string }).tabId);
    }
    const out = await rig.kit.call('browser', { action: 'open', url: url('/page'), profile: 'work-1' });
    expect(out.text).toMatch(/^TAB_LIMIT: /);
    expect(rig.person.asked).toHaveLength(0);
    for (const tabId of tabs) await rig.kit.call('browser', { action: 'close', tabId });
  });
});

describe('session approvals', () => {
  it('an approval for one handle is never spent on another', async () => {
    const opened = await rig.kit.call('browser', { action: 'open', url: url('/page') });
    const tabId = (opened.data as { tabId: string }).tabId;
    rig.person.answer = 'nobody';
    const first = await rig.kit.call('browser', { action: 'session_save', tabId, handle: 'h1' });
    const { requestId } = first.data as { requestId: string };
    expect(first.text).toMatch(/^approval required: 'session'/);
    rig.person.decide(requestId, 'allow');
    const second = await rig.kit.call('browser', { action: 'session_save', tabId, handle: 'h2' });
    expect(second.text).toMatch(/^approval required: 'session'/);
    expect((second.data as { requestId: string }).requestId).not.toBe(requestId);
    expect(rig.person.asked.at(-1)!.request.subject).toContain('"h2"');
    await rig.kit.call('browser', { action: 'close', tabId });
  });
});
