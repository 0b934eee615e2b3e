import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { isArgumentError, isTokenError } from '@vmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../src/engine/chromium-path.js';
import { chromiumArgs } from '../src/engine/launch-args.js';
import type { SnapshotEntry } from '../src/perception/document-snapshot.js';
import { query } from '../src/perception/query.js';
import { IMAGE_BUDGET, screenshot } from '../src/perception/screenshot.js';
import { waitFor } from '../src/perception/wait-for.js';
import { BrowserTab } from '../src/tabs/browser-tab.js';
import { type FixtureServer, HOST_RULES, serveFixtures } from './fixture-server.js';
import { PAGES } from './perception-fixtures.js';

/*
 * Perception against a real Chromium: one browser for the file, fixture pages on 127.0.0.1
 * under two site names (so a cross-origin iframe runs in a process of its own). Each test
 * opens a tab as the plugin does (console shim first, then the page) and reads it.
 */

let browser: Browser;
let context: BrowserContext;
let fixtures: FixtureServer;
let tabs = 0;

beforeAll(async () => {
  fixtures = await serveFixtures(PAGES);
  browser = await chromium.launch({
    executablePath: await findChromium(),
    args: [...chromiumArgs({ asRoot: process.getuid?.() === 0 }), `--host-resolver-rules=${HOST_RULES}`],
  });
  context = await browser.newContext();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await fixtures?.close();
});

async function open(path: string, host: 'a' | 'b' = 'a'): Promise<BrowserTab> {
  const page = await context.newPage();
  const tab = new BrowserTab(`tab-${++tabs}`, 'main', 'sandbox', page, context);
  await tab.perception.console.install();
  await page.goto(fixtures.url(path, host), { waitUntil: 'load' });
  return tab;
}

const read = (tab: BrowserTab) => tab.perception.read(tab.url);
const find = (snapshot: readonly SnapshotEntry[], role: string, name: string) => {
  const entry = snapshot.find((e) => e.role === role && e.name === name);
  if (entry === undefined) throw new Error(`no ${role} "${name}" in ${JSON.stringify(snapshot, null, 1)}`);
  return entry;
};
const idOf = (tab: BrowserTab, ref: string) =>
  tab.perception.withElement<string>(ref, '(element) => element.id');

async function refusal(pending: Promise<unknown>): Promise<{ token: string; message: string }> {
  const outcome: unknown = await pending.then(
    () => new Error('expected a refusal'),
    (error: unknown) => error,
  );
  if (isTokenError(outcome)) return { token: outcome.token, message: outcome.message };
  throw outcome instanceof Error ? outcome : new Error(String(outcome));
}

describe('read', () => {
  it('lists a form from the accessibility tree: roles, names, level, checked, disabled, upload', async () => {
    const tab = await open('/form');
    const { url, snapshot, truncated } = await read(tab);
    expect(url).toBe(fixtures.url('/form'));
    expect(truncated).toBeUndefined();
    expect(find(snapshot, 'heading', 'Create an account')).toMatchObject({ level: 1 });
    expect(find(snapshot, 'heading', 'Questions?')).toMatchObject({ level: 2 });
    expect(find(snapshot, 'textbox', 'Email').ref).toMatch(/^e\d+$/);
    expect(find(snapshot, 'textbox', 'Password').ref).toMatch(/^e\d+$/);
    expect(find(snapshot, 'checkbox', 'Send me news')).toMatchObject({ checked: true });
    expect(find(snapshot, 'radio', 'Free')).toMatchObject({ checked: true });
    expect(find(snapshot, 'radio', 'Pro')).toMatchObject({ checked: false });
    expect(find(snapshot, 'combobox', 'Country').ref).toBeDefined();
    expect(find(snapshot, 'textbox', 'About you').ref).toBeDefined();
    expect(find(snapshot, 'button', 'Create account')).not.toHaveProperty('disabled');
    expect(find(snapshot, 'button', 'Later')).toMatchObject({ disabled: true });
    const photo = snapshot.find((e) => e.upload === true);
    expect(photo?.role).toBe('button');
    expect(await idOf(tab, photo!.ref!)).toBe('photo');
    // The text between controls is kept as an excerpt, without a ref.
    expect(snapshot).toContainEqual({
      role: 'text',
      name: expect.stringContaining('Fill in the form below') as string,
    });
    for (const entry of snapshot) expect(entry.ref === undefined).toBe(entry.role === 'text');
    // The label's text is the control's name; it is not said twice.
    expect(snapshot.filter((e) => e.name === 'Email')).toHaveLength(1);
    await tab.page.close();
  });

  it('makes every rendered control addressable, those the tree leaves out included', async () => {
    const tab = await open('/form');
    const { snapshot } = await read(tab);
    const ids = await Promise.all(snapshot.filter((e) => e.ref).map((e) => idOf(tab, e.ref!)));
    // An <a> without href, a [tabindex] span, a [role=button] div, a button under aria-hidden.
    for (const id of ['plain-a', 'focusable', 'role-button', 'hidden-from-tree', 'submit', 'news', 'country'])
      expect(ids).toContain(id);
    expect(find(snapshot, 'link', 'Contact us').ref).toBeDefined();
    expect(find(snapshot, 'button', 'Hidden from the tree').ref).toBeDefined();
    await tab.page.close();
  });

  it('gives an element the same ref on every read of the page generation', async () => {
    const tab = await open('/form');
    const first = await read(tab);
    const second = await read(tab);
    expect(second.snapshot).toEqual(first.snapshot);
    const submit = find(first.snapshot, 'button', 'Create account').ref!;
    expect(await idOf(tab, submit)).toBe('submit');
    const queried = await query(tab.perception, tab.generation, '#submit', {});
    expect(queried.elements[0]?.ref).toBe(submit);
    await tab.page.close();
  });

  it('reuses an unchanged page snapshot, and reads it afresh after any change', async () => {
    const tab = await open('/changing');
    const names = (snapshot: readonly SnapshotEntry[]) => snapshot.map((e) => `${e.role}:${e.name}`);
    const first = await read(tab);
    const before = tab.perception.snapshots.reused;
    expect(await read(tab)).toEqual(first);
    // The main document and the cross-origin frame's, both unchanged.
    expect(tab.perception.snapshots.reused).toBe(before + 2);
    const box = find(first.snapshot, 'checkbox', 'Remember me');
    expect(box.checked).toBe(true);

    // Each change below is one a MutationObserver alone would miss, but for the last two.
    const changes: [string, string, (snapshot: readonly SnapshotEntry[]) => void][] = [
      [
        'a script sets .checked (no mutation, no event)',
        `document.getElementById('box').checked = false`,
        (snapshot) => expect(find(snapshot, 'checkbox', 'Remember me')).toEqual({ ...box, checked: false }),
      ],
      [
        'a rule inserted through the CSSOM hides a button',
        `document.getElementById('sheet').sheet.insertRule('#shy { display: none }')`,
        (snapshot) => expect(names(snapshot)).not.toContain('button:Shy button'),
      ],
      [
        'a custom element defined late renders into a new shadow root',
        `customElements.define('late-widget', class extends HTMLElement {
          constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<button>Late button</button>'; }
        })`,
        (snapshot) => expect(names(snapshot)).toContain('button:Late button'),
      ],
      [
        'text changes inside an open shadow root',
        `document.getElementById('host').shadowRoot.getElementById('inner').textContent = 'Inner renamed'`,
        (snapshot) => expect(names(snapshot)).toContain('button:Inner renamed'),
      ],
      [
        'a button is added to the light DOM',
        `document.body.append(Object.assign(document.createElement('button'), { textContent: 'Added' }))`,
        (snapshot) => expect(names(snapshot)).toContain('button:Added'),
      ],
    ];
    for (const [, script, check] of changes) {
      await tab.page.evaluate(script);
      const { snapshot } = await read(tab);
      check(snapshot);
      // Unchanged elements keep their refs: the generation is the same.
      expect(find(snapshot, 'checkbox', 'Remember me').ref).toBe(box.ref);
    }

    // A change in the cross-origin frame's document: only that document is read again.
    const cross = tab.page.frames().find((f) => f.url().startsWith(fixtures.origins.b))!;
    await cross.evaluate(
      `document.body.append(Object.assign(document.createElement('button'), { textContent: 'Framed' }))`,
    );
    const reused = tab.perception.snapshots.reused;
    const { snapshot } = await read(tab);
    expect(names(snapshot)).toContain('button:Framed');
    expect(tab.perception.snapshots.reused).toBe(reused + 1);
    await tab.page.close();
  });

  it('spends the output bound on the rendered controls first, and says what it left out', async () => {
    const tab = await open('/many-controls');
    const result = await read(tab);
    // Whole, as the output bound prints it: a list the client can parse.
    expect(Buffer.byteLength(JSON.stringify(result, null, 2))).toBeLessThanOrEqual(75_000);
    expect(result.truncated).toBe(true);
    const buttons = result.snapshot.filter((e) => e.role === 'button');
    expect(buttons).toHaveLength(760);
    expect(new Set(buttons.map((e) => e.ref)).size).toBe(760);
    // In document order, each reaching its element, its name shortened to fit.
    expect(buttons[0]!.name).toBe('Control number 0000…');
    expect(await idOf(tab, buttons[0]!.ref!)).toBe('c0');
    expect(await idOf(tab, buttons[759]!.ref!)).toBe('c759');
    // The excerpts, the links no one sees and the headings went first; then the names got shorter.
    expect(result.snapshot.filter((e) => e.role !== 'button')).toEqual([]);
    expect(result.omitted).toEqual({ text: 64, headings: 64, hidden: 64, shortenedNames: 760 });
    await tab.page.close();
  });

  it('includes same-origin and cross-origin iframes, each element reachable by its ref', async () => {
    const tab = await open('/frames');
    // The cross-origin frame really is out of process: it has a CDP target of its own.
    const cross = tab.page.frames().find((f) => f.url().startsWith(fixtures.origins.b))!;
    await expect(context.newCDPSession(cross).then((s) => s.detach())).resolves.toBeUndefined();
    const { snapshot, unreachable } = await read(tab);
    expect(unreachable).toBeUndefined();
    const names = snapshot.map((e) => `${e.role}:${e.name}`);
    const same = names.indexOf('iframe:Same origin');
    const other = names.indexOf('iframe:Cross origin');
    expect(same).toBeGreaterThanOrEqual(0);
    expect(other).toBeGreaterThan(same);
    // Each frame's document follows its iframe, in order.
    expect(names[same + 1]).toBe('button:Inside the frame');
    expect(names[other + 1]).toBe('button:Inside the frame');
    expect(names.at(-1)).toBe('button:After the frames');
    const inSame = snapshot[same + 1]!.ref!;
    const inCross = snapshot[other + 1]!.ref!;
    expect(inSame).not.toBe(inCross);
    expect(await idOf(tab, inSame)).toBe('child-button');
    expect(await tab.perception.withElement(inCross, '(e) => location.origin')).toBe(fixtures.origins.b);
    await tab.page.close();
  });

  it('reads open and closed shadow roots (the accessibility tree sees through both)', async () => {
    const tab = await open('/shadow');
    const { snapshot, unreachable } = await read(tab);
    expect(unreachable).toBeUndefined();
    const open_ = find(snapshot, 'button', 'Open shadow button');
    const closed = find(snapshot, 'button', 'Closed shadow button');
    expect(find(snapshot, 'link', 'Open shadow anchor').ref).toBeDefined();
    expect(await idOf(tab, open_.ref!)).toBe('in-open');
    expect(await idOf(tab, closed.ref!)).toBe('in-closed');
    expect(snapshot.map((e) => e.name)).toEqual([
      'Open shadow button',
      'Open shadow anchor',
      'Closed shadow button',
      'Light button',
    ]);
    await tab.page.close();
  });

  it('bounds a 70,000-element page: at most 2,000 entries, under the output bound, truncated', async () => {
    const tab = await open('/huge');
    const result = await read(tab);
    expect(result.truncated).toBe(true);
    expect(result.snapshot.length).toBeGreaterThan(100);
    expect(result.snapshot.length).toBeLessThanOrEqual(2000);
    expect(Buffer.byteLength(JSON.stringify(result, null, 2))).toBeLessThan(75_000);
    // The controls have the room: the heading went, and the list says so.
    expect(result.omitted).toEqual({ headings: 1, controls: expect.any(Number) as number });
    expect(result.snapshot.some((e) => e.role === 'heading')).toBe(false);
    expect(find(result.snapshot, 'link', 'Link 0').ref).toBeDefined();
    expect(find(result.snapshot, 'button', 'Act 0').ref).toBeDefined();
    await tab.page.close();
  }, 180_000);

  it('is not fooled by a page that poisons its globals or tries to read the isolated world', async () => {
    const tab = await open('/poisoned');
    // The poison is in place in the page's own world (the page says so)…
    expect(await tab.page.getAttribute('body', 'data-poisoned')).toBe('true');
    // …and perception, in its isolated world, does not see it.
    const { snapshot } = await read(tab);
    expect(find(snapshot, 'heading', 'Poisoned').level).toBe(1);
    const button = find(snapshot, 'button', 'Real button');
    expect(await idOf(tab, button.ref!)).toBe('real');
    expect(snapshot).toContainEqual({ role: 'text', name: 'Plain text' });
    const queried = await query(tab.perception, tab.generation, 'button, p', { attributes: true });
    expect(queried.count).toBe(2);
    expect(queried.elements.map((e) => e.tag)).toEqual(['button', 'p']);
    expect(queried.elements[1]?.attributes).toEqual({ class: 'note' });
    const found = await waitFor(tab, { kind: 'text', text: 'plain TEXT' }, 2000);
    expect(found.matched).toBe(true);
    const { entries } = await tab.perception.console.read(false);
    expect(entries).toEqual([{ level: 'error', text: 'logged before the poison' }]);
    // The page's own trap on `window.__vmark` never fired: vmark's globals are not the page's.
    expect(await tab.page.title()).toBe('Poisoned');
    await tab.page.close();
  });
});

describe('refs after the page generation changes', () => {
  it('refuses the refs of an earlier generation (an SPA history change) and gives new ones', async () => {
    const tab = await open('/spa');
    const before = await read(tab);
    const button = find(before.snapshot, 'button', 'Open message').ref!;
    const generation = tab.generation;
    await tab.page.click('#next');
    await expect.poll(() => tab.generation).toBe(generation + 1);
    expect(await refusal(tab.perception.withElement(button, '(e) => e.id'))).toMatchObject({
      token: 'STALE_REF',
      message: expect.stringContaining('earlier page generation') as string,
    });
    expect((await refusal(tab.perception.elementHandle(button, 'test'))).token).toBe('STALE_REF');
    const after = await read(tab);
    const again = find(after.snapshot, 'button', 'Open message').ref!;
    expect(again).not.toBe(button);
    expect(Number(again.slice(1))).toBeGreaterThan(Number(button.slice(1)));
    expect(await idOf(tab, again)).toBe('next');
    await tab.page.close();
  });

  it('finds an element by ref for a later part (act): by a world function, or as a CDP object', async () => {
    const tab = await open('/form');
    const { snapshot } = await read(tab);
    const submit = find(snapshot, 'button', 'Create account').ref!;
    expect(await tab.perception.withElement(submit, 'async (e, suffix) => e.textContent + suffix', '!')).toBe(
      'Create account!',
    );
    const handle = await tab.perception.elementHandle(submit, 'test-handles');
    const session = await handle.document.world.session();
    const { node } = await session.send('DOM.describeNode', { objectId: handle.objectId });
    expect(node.localName).toBe('button');
    await session.send('Runtime.releaseObjectGroup', { objectGroup: 'test-handles' });
    expect((await refusal(tab.perception.withElement('e999999', '(e) => 1'))).token).toBe('UNKNOWN_REF');
    expect((await refusal(tab.perception.withElement('submit', '(e) => 1'))).token).toBe('UNKNOWN_REF');
    // An element that left the page: its ref is refused, not pointed elsewhere.
    await tab.page.evaluate(() => document.getElementById('submit')!.remove());
    expect(await refusal(tab.perception.withElement(submit, '(e) => 1'))).toMatchObject({
      token: 'STALE_REF',
      message: expect.stringContaining('left the page') as string,
    });
    await tab.page.close();
  });
});

describe('query', () => {
  it('answers at most 50 elements, 500-character texts, and the fields asked for', async () => {
    const tab = await open('/query');
    const all = await query(tab.perception, tab.generation, 'li.item', {
      attributes: true,
      box: true,
      styles: ['color', 'display'],
    });
    expect(all.count).toBe(60);
    expect(all.elements).toHaveLength(50);
    expect(all.truncated).toBe(true);
    expect(all.elements[0]).toMatchObject({
      tag: 'li',
      text: 'Item 0',
      attributes: { class: 'item', 'data-i': '0', style: 'color: rgb(255, 0, 0)' },
      styles: { color: 'rgb(255, 0, 0)', display: 'list-item' },
    });
    expect(all.elements[0]!.box).toEqual({
      x: expect.any(Number),
      y: expect.any(Number),
      width: expect.any(Number),
      height: expect.any(Number),
    });
    const long = await query(tab.perception, tab.generation, '#long', {});
    expect(long.elements[0]!.text).toHaveLength(500);
    expect(long.truncated).toBe(true);
    const plain = await query(tab.perception, tab.generation, 'li[data-i="3"]', {});
    expect(plain).toEqual({
      count: 1,
      elements: [{ ref: expect.stringMatching(/^e\d+$/), tag: 'li', text: 'Item 3' }],
    });
    await tab.page.close();
  });

  it('refuses a selector that is not CSS, clearly', async () => {
    const tab = await open('/query');
    const outcome: unknown = await query(tab.perception, tab.generation, 'li[', {}).catch((e: unknown) => e);
    expect(isArgumentError(outcome)).toBe(true);
    expect((outcome as Error).message).toMatch(/^query: "li\[" is not a valid CSS selector/);
    await tab.page.close();
  });
});

describe('console', () => {
  it('keeps console.* calls, uncaught errors and unhandled rejections of the main frame', async () => {
    const tab = await open('/console');
    await expect
      .poll(async () => (await tab.perception.console.read(false)).entries.length)
      .toBeGreaterThanOrEqual(8);
    const { entries, dropped } = await tab.perception.console.read(false);
    expect(dropped).toBe(0);
    expect(entries.slice(0, 5)).toEqual([
      { level: 'log', text: 'a log {"answer":42} [1,2]' },
      { level: 'info', text: 'an info' },
      { level: 'warn', text: 'a warning' },
      { level: 'debug', text: 'a debug' },
      { level: 'error', text: 'Error: an error object' },
    ]);
    expect(entries[5]).toEqual({ level: 'log', text: 'x'.repeat(2000) });
    expect(entries.slice(6)).toEqual(
      expect.arrayContaining([
        { level: 'error', text: 'Uncaught TypeError: thrown later' },
        { level: 'error', text: 'Unhandled rejection: Error: nobody caught this' },
      ]),
    );
    // The iframe's own log is not the main frame's.
    expect(entries.map((e) => e.text)).not.toContain('from the frame');
    await tab.page.close();
  });

  it('keeps the last 200 entries of a flood, counts the dropped ones, and drains on clear', async () => {
    const tab = await open('/flood');
    const first = await tab.perception.console.read(false);
    expect(first.entries).toHaveLength(200);
    expect(first.dropped).toBe(9800);
    expect(first.entries[0]).toEqual({ level: 'log', text: 'line 9800' });
    expect(first.entries.at(-1)).toEqual({ level: 'log', text: 'line 9999' });
    // Reads overlap; a clear answers the same, then empties.
    expect(await tab.perception.console.read(true)).toEqual(first);
    expect(await tab.perception.console.read(false)).toEqual({ entries: [], dropped: 0 });
    await tab.page.evaluate(() => console.log('after the clear'));
    expect((await tab.perception.console.read(false)).entries).toEqual([
      { level: 'log', text: 'after the clear' },
    ]);
    await tab.page.close();
  });
});

describe('wait_for', () => {
  it('waits for a ref to render, a role and name, a text and a URL; says no when time runs out', async () => {
    const tab = await open('/later');
    // Hidden at first: not in the tree, and not in the snapshot.
    expect((await waitFor(tab, { kind: 'role', role: 'button', name: 'appeared' }, 100)).matched).toBe(false);
    const shown = await waitFor(tab, { kind: 'role', role: 'button', name: 'APPEARED' }, 5000);
    expect(shown.matched).toBe(true);
    expect(await idOf(tab, shown.ref!)).toBe('late');
    expect(await waitFor(tab, { kind: 'ref', ref: shown.ref! }, 1000)).toEqual({
      matched: true,
      ref: shown.ref,
    });
    const text = await waitFor(tab, { kind: 'text', text: 'all  done' }, 5000);
    expect(text.matched).toBe(true);
    expect(await tab.perception.withElement(text.ref!, '(e) => e.localName')).toBe('p');
    expect(await waitFor(tab, { kind: 'text', text: 'never shown' }, 300)).toEqual({ matched: false });
    expect(await waitFor(tab, { kind: 'url', urlContains: '/later' }, 100)).toEqual({ matched: true });
    expect(await waitFor(tab, { kind: 'url', urlContains: '/elsewhere' }, 100)).toEqual({ matched: false });
    await tab.page.close();
  });

  it('waits for the element of a hidden ref to show, and refuses a ref of an earlier page', async () => {
    const tab = await open('/spa');
    const { snapshot } = await read(tab);
    const title = find(snapshot, 'heading', 'Inbox').ref!;
    await tab.page.evaluate(() => {
      const title = document.getElementById('title')!;
      title.style.display = 'none';
      setTimeout(() => (title.style.display = ''), 300);
    });
    expect(await waitFor(tab, { kind: 'ref', ref: title }, 5000)).toEqual({ matched: true, ref: title });
    const waiting = waitFor(tab, { kind: 'url', urlContains: '/spa/2' }, 5000);
    await tab.page.click('#next');
    expect(await waiting).toEqual({ matched: true });
    expect((await refusal(waitFor(tab, { kind: 'ref', ref: title }, 1000))).token).toBe('STALE_REF');
    await tab.page.close();
  });
});

describe('screenshot', () => {
  it('captures the visible page as a JPEG within the image budget, even a page of noise', async () => {
    for (const path of ['/form', '/noise']) {
      const tab = await open(path);
      const shot = await screenshot(tab.world, tab.url);
      const [text, image] = shot.content;
      expect(text).toEqual({ type: 'text', text: `Screenshot of ${fixtures.url(path)}` });
      expect(image).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
      const data = image?.type === 'image' ? image.data : '';
      expect(data.length).toBeLessThanOrEqual(IMAGE_BUDGET);
      expect(Buffer.from(data, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      await tab.page.close();
    }
  });
});
