import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolOutcome } from '@vmark/sdk/testing';
import { describe, expect, it } from 'vitest';
import { ACT_PAGES } from './act-fixtures.js';
import { personHostForFile } from './person-desk.js';

/*
 * `browser act` as an MCP client sees it: the browser plugin in a real host (one Chromium for
 * the file), fixture pages on 127.0.0.1 under the names a.test and b.test, and the host's real
 * approval broker, with the test standing for the person at the editor (person-desk.ts).
 */

const rig = personHostForFile((server) => {
  for (const [route, html] of Object.entries(ACT_PAGES))
    // `rig.server` is not there yet while its pages are routed: the server's own port names b.test.
    server.html(route, typeof html === 'string' ? html : html(`http://b.test:${server.port}`));
  server.route('/to-b', (_req, res) => {
    res.writeHead(302, { location: `${origin('b')}/landed` });
    res.end();
  });
});

const origin = (host: 'a' | 'b' = 'a') => `http://${host}.test:${rig.server.port}`;

interface Acted {
  readonly result: Record<string, unknown> & { reason?: string };
  readonly url: string;
  readonly generation: number;
  readonly popup?: { url: string };
}

async function open(route: string, host: 'a' | 'b' = 'a'): Promise<string> {
  const opened = await rig.kit.call('browser', { action: 'open', url: `${origin(host)}${route}` });
  expect(opened.isError, opened.text).toBe(false);
  return (opened.data as { tabId: string }).tabId;
}

async function actOn(tabId: string, args: Record<string, unknown>): Promise<Acted> {
  const out = await rig.kit.call('browser', { action: 'act', tabId, ...args });
  expect(out.isError, out.text).toBe(false);
  return out.data as Acted;
}

const click = (tabId: string, role: string, name: string) => actOn(tabId, { operation: 'click', role, name });

/** A click by role and name as it answers, refusal or not. */
const tryClick = (tabId: string, role: string, name: string) =>
  rig.kit.call('browser', { action: 'act', tabId, operation: 'click', role, name });

/** What the page's #log (or another element) says now. */
async function text(tabId: string, selector = '#log'): Promise<string> {
  const out = await rig.kit.call('browser_read', { action: 'query', tabId, selector });
  return (out.data as { elements: { text: string }[] }).elements[0]?.text ?? '';
}

async function snapshot(
  tabId: string,
): Promise<{ role: string; name: string; ref?: string; upload?: true }[]> {
  const out = await rig.kit.call('browser_read', { action: 'read', tabId });
  return (out.data as { snapshot: { role: string; name: string; ref?: string; upload?: true }[] }).snapshot;
}

const close = (tabId: string) => rig.kit.call('browser', { action: 'close', tabId });

describe('act arguments', () => {
  it('are checked with the original messages, and nothing happens', async () => {
    const tabId = await open('/effects');
    const message = async (args: Record<string, unknown>) => {
      const out: ToolOutcome = await rig.kit.call('browser', { action: 'act', tabId, ...args });
      expect(out.isError).toBe(true);
      return out.text;
    };
    expect(await message({ operation: 'hover' })).toContain(
      "act operation must be 'click', 'type', 'scroll', or 'key'",
    );
    expect(await message({ operation: 'click', ref: 'e1', role: 'button', name: 'x' })).toContain(
      'act takes either `ref` or `role`+`name`, not both',
    );
    expect(await message({ operation: 'click', role: 'button' })).toContain(
      'act requires a `ref` (from read) or both `role` and `name`',
    );
    expect(await message({ operation: 'type', role: 'textbox', name: 'Focus target' })).toContain(
      "act operation 'type' requires a 'text' string (pass \"\" to intentionally clear the field)",
    );
    for (const args of [{}, { ref: 'e1', dy: 10 }, { dy: Number.NaN }]) {
      expect(await message({ operation: 'scroll', ...args })).toContain(
        'scroll requires exactly one of a `ref` (from read) or a numeric `dy` pixel delta',
      );
    }
    expect(await message({ operation: 'key', key: ' ' })).toContain(
      'act operation \'key\' requires a non-empty `key` name (e.g. "Enter")',
    );
    expect(await message({ operation: 'key', key: 'Enter', modifiers: { ctrl: true, hyper: true } })).toMatch(
      /modifiers/,
    );
    expect(await message({ operation: 'key', key: 'NoSuchKey' })).toContain('unknown key "NoSuchKey"');
    expect(rig.person.asked).toHaveLength(0);
    expect(await text(tabId)).toBe('');
    await close(tabId);
  });
});

describe('act click', () => {
  it('refuses a target under a cookie overlay, naming the overlay, and clicks nothing', async () => {
    const tabId = await open('/overlay');
    const acted = await click(tabId, 'button', 'Buy now');
    expect(acted.result).toEqual({
      reason: 'obscured',
      by: 'covered by div.cmp-overlay.consent',
      matchedTotal: 1,
      matchedVisible: 1,
    });
    expect(acted).toMatchObject({ url: `${origin()}/overlay`, generation: expect.any(Number) });
    expect(rig.person.asked).toHaveLength(0); // refused before anyone was rig.person.asked
    expect(await text(tabId)).toBe('');
    await close(tabId);
  });

  it('skips the duplicate inside a collapsed accordion step and clicks the rendered one', async () => {
    const tabId = await open('/accordion');
    const acted = await click(tabId, 'button', 'Continue');
    expect(acted.result).toMatchObject({ matchedTotal: 2, matchedVisible: 1, effect: 'dom-changed' });
    expect(await text(tabId)).toBe('shown-continue;');
    // The person was rig.person.asked about exactly this element, on this page generation.
    expect(rig.person.asked[0]!.request).toMatchObject({ operation: 'click', origin: origin() });
    expect(rig.person.asked[0]!.request.subject).toBe(
      `click button “Continue” — on ${origin()}/accordion (${tabId}, page 1)`,
    );
    await close(tabId);
  });

  it('calls two rendered "Submit" buttons ambiguous, with both refs', async () => {
    const tabId = await open('/two-submits');
    const refs = (await snapshot(tabId)).filter((e) => e.name === 'Submit').map((e) => e.ref);
    const acted = await click(tabId, 'button', 'Submit');
    expect(acted.result).toMatchObject({ reason: 'ambiguous', matchedTotal: 2, matchedVisible: 2 });
    expect(acted.result.candidates).toEqual(refs);
    expect(rig.person.asked).toHaveLength(0);
    await close(tabId);
  });

  it('refuses disabled, pointer-events: none, inert, unreachable and file-input targets', async () => {
    const tabId = await open('/controls');
    expect((await click(tabId, 'button', 'Disabled one')).result).toMatchObject({ reason: 'disabled' });
    expect((await click(tabId, 'button', 'No pointer')).result).toEqual({
      reason: 'disabled',
      matchedTotal: 1,
      matchedVisible: 1,
    });
    const inert = (await snapshot(tabId)).find((e) => e.name === 'Inert one');
    if (inert !== undefined) {
      expect((await click(tabId, inert.role, inert.name)).result).toMatchObject({ reason: 'disabled' });
    }
    expect((await click(tabId, 'button', 'Above the page')).result).toMatchObject({ reason: 'offscreen' });
    const upload = (await snapshot(tabId)).find((e) => e.upload === true)!;
    expect((await click(tabId, upload.role, upload.name)).result).toMatchObject({ reason: 'upload' });
    expect(rig.person.asked).toHaveLength(0);
    expect(await text(tabId)).toBe('');
    await close(tabId);
  });

  it('scrolls an offscreen target into view and clicks it', async () => {
    const tabId = await open('/offscreen');
    const acted = await click(tabId, 'button', 'Far away');
    // The result holds the fields of vmark-notes §3.1 and `effect`, nothing else.
    expect(acted.result).toEqual({ matchedTotal: 1, matchedVisible: 1, effect: 'dom-changed' });
    expect(await text(tabId)).toBe('far;');
    await close(tabId);
  });

  it('reaches a button in an open shadow root and one in an iframe', async () => {
    const tabId = await open('/places');
    expect((await click(tabId, 'button', 'Shadow button')).result).toMatchObject({ effect: 'dom-changed' });
    expect(await text(tabId)).toBe('shadow;');
    expect((await click(tabId, 'button', 'Framed button')).result).toMatchObject({ effect: 'dom-changed' });
    expect((await snapshot(tabId)).some((e) => e.name === 'Framed button (clicked)')).toBe(true);
    // Another site's frame runs in a process of its own: its point is mapped into the page's view.
    expect((await click(tabId, 'button', 'Other-site button')).result).toMatchObject({
      effect: 'dom-changed',
    });
    expect((await snapshot(tabId)).some((e) => e.name === 'Other-site button (clicked)')).toBe(true);
    await close(tabId);
  });

  it("reaches another site's frame at the right point each time the page above it has moved", async () => {
    const tabId = await open('/growing');
    for (let moved = 1; moved <= 6; moved++) {
      expect((await click(tabId, 'button', 'Grow')).result).toMatchObject({ effect: 'dom-changed' });
      // The press and the release both reach the button, at its place now, in the frame's own process.
      expect((await click(tabId, 'button', 'Count')).result).toMatchObject({ effect: 'dom-changed' });
    }
    expect((await snapshot(tabId)).some((e) => e.name === '6')).toBe(true);
    await close(tabId);
  });

  it('follows a button that moves away when the pointer reaches it', async () => {
    const tabId = await open('/moving');
    expect((await click(tabId, 'button', 'Catch me')).result).toMatchObject({ effect: 'dom-changed' });
    expect(await text(tabId)).toBe('caught;');
    await close(tabId);
  });

  it('says what a click did: nothing, a change, a focus move, a navigation', async () => {
    const tabId = await open('/effects');
    expect((await click(tabId, 'button', 'Does nothing')).result).toMatchObject({
      effect: 'nothing-observable',
    });
    expect((await click(tabId, 'button', 'Changes the page')).result).toMatchObject({
      effect: 'dom-changed',
    });
    expect((await click(tabId, 'button', 'Move focus')).result).toMatchObject({ effect: 'focus-moved' });
    const before = await actOn(tabId, { operation: 'click', role: 'button', name: 'Does nothing' });
    const moved = await click(tabId, 'link', 'Next page');
    expect(moved.result).toMatchObject({ effect: 'navigation-started' });
    expect(moved.url).toBe(`${origin()}/landed`);
    expect(moved.generation).toBeGreaterThan(before.generation);
    await close(tabId);
  });
});

describe('act type', () => {
  it('replaces a text field, clears one, and refuses a value the field will not hold', async () => {
    const tabId = await open('/fields');
    expect(
      (await actOn(tabId, { operation: 'type', role: 'textbox', name: 'Email', text: 'new@example.com' }))
        .result,
    ).toEqual({ matchedTotal: 1, matchedVisible: 1 });
    const value = async (selector: string) => {
      const out = await rig.kit.call('browser', {
        action: 'execute_js',
        tabId,
        script: `return document.querySelector(${JSON.stringify(selector)}).value;`,
      });
      return (out.data as { result: string }).result;
    };
    expect(await value('#email')).toBe('new@example.com');
    expect(rig.person.asked.at(-2)?.request.subject).toMatch(/^type “new@example\.com” into textbox “Email”/);
    await actOn(tabId, { operation: 'type', role: 'textbox', name: 'Email', text: '' });
    expect(await value('#email')).toBe('');
    expect(
      (await actOn(tabId, { operation: 'type', role: 'textbox', name: 'Code', text: '12345' })).result,
    ).toMatchObject({ reason: 'rejected-value' });
    expect(
      (await actOn(tabId, { operation: 'type', role: 'button', name: 'Not a field', text: 'x' })).result,
    ).toMatchObject({ reason: 'rejected-value' });
    await close(tabId);
  });

  it('chooses a <select> option by label or value, and refuses one it does not have', async () => {
    const tabId = await open('/fields');
    const country = async () =>
      ((await snapshot(tabId)).find((e) => e.role === 'combobox') as { name: string } | undefined)?.name;
    const name = (await country())!;
    await actOn(tabId, { operation: 'type', role: 'combobox', name, text: 'Norway' });
    expect(await text(tabId, '#country')).toMatch(/Norway/);
    const byValue = await actOn(tabId, { operation: 'type', role: 'combobox', name, text: 'pe' });
    expect(byValue.result).not.toHaveProperty('reason');
    const missing = await actOn(tabId, { operation: 'type', role: 'combobox', name, text: 'Mars' });
    expect(missing.result).toMatchObject({ reason: 'no-such-option' });
    await close(tabId);
  });

  it('types into a contenteditable region', async () => {
    const tabId = await open('/fields');
    const acted = await actOn(tabId, {
      operation: 'type',
      role: 'textbox',
      name: 'Notes',
      text: 'Fresh notes',
    });
    expect(acted.result).not.toHaveProperty('reason');
    expect(await text(tabId, '#notes')).toBe('Fresh notes');
    await close(tabId);
  });
});

describe('act key and scroll', () => {
  it('Enter in a form submits and Tab moves focus, reported as defaultAction', async () => {
    const tabId = await open('/fields');
    const enter = await actOn(tabId, { operation: 'key', key: 'Enter', role: 'textbox', name: 'Email' });
    expect(enter.result).toMatchObject({ defaultAction: 'submit' });
    expect(await text(tabId)).toBe('submitted');
    expect(rig.person.asked.at(-1)?.request.subject).toMatch(/^press Enter in textbox “Email”/);
    const tab = await actOn(tabId, { operation: 'key', key: 'Tab', modifiers: { shift: true } });
    expect(tab.result).toMatchObject({ defaultAction: 'focus-moved' });
    expect(rig.person.asked.at(-1)?.request.subject).toMatch(/^press Shift\+Tab on the page/);
    await close(tabId);
  });

  it('scrolls the page by dy', async () => {
    const tabId = await open('/offscreen');
    const scrolled = await actOn(tabId, { operation: 'scroll', dy: 400 });
    expect(scrolled.result).toEqual({});
    expect(rig.person.asked.at(-1)?.request.subject).toMatch(/^scroll the page by 400 px/);
    const at = await rig.kit.call('browser', { action: 'execute_js', tabId, script: 'return scrollY;' });
    expect(at.data).toMatchObject({ result: 400 });
    await close(tabId);
  });
});

describe('act approvals', () => {
  it('waits for a person with the verbatim refusal; an approval is spent by a navigation', async () => {
    rig.person.answer = 'nobody';
    const tabId = await open('/effects');
    const waiting = await tryClick(tabId, 'button', 'Changes the page');
    expect(waiting.text).toBe(
      `approval required: 'click' on ${origin()}/effects. Ask the user to approve this action in VMark and WAIT. ` +
        `Once they have approved, retry with browser {action:"act", tabId:"${tabId}"} — a fresh open would create ` +
        'a new tab that the approval cannot cover. Do not retry before they have approved — a retry only re-raises the same request.',
    );
    expect(waiting.data).toMatchObject({
      needsApproval: true,
      operation: 'click',
      retry: { action: 'act', tabId },
    });
    const { requestId } = waiting.data as { requestId: string };
    expect(await text(tabId)).toBe('');
    // Approved, but the page navigated (reloaded) meanwhile: the approval was for the page before.
    rig.person.decide(requestId, 'allow');
    await rig.kit.call('browser', { action: 'navigate', tabId, url: `${origin()}/effects` });
    const again = await tryClick(tabId, 'button', 'Changes the page');
    expect(again.data).toMatchObject({ needsApproval: true });
    expect((again.data as { requestId: string }).requestId).not.toBe(requestId);
    expect(await text(tabId)).toBe('');
    // Approved for this page: the retry clicks.
    rig.person.decide((again.data as { requestId: string }).requestId, 'allow');
    expect((await click(tabId, 'button', 'Changes the page')).result).toMatchObject({
      effect: 'dom-changed',
    });
    await close(tabId);
  });

  it('an in-page (history) navigation spends an approval too, though the URL shown is the same', async () => {
    rig.person.answer = 'nobody';
    const tabId = await open('/effects');
    const waiting = await tryClick(tabId, 'button', 'Changes the page');
    const { requestId } = waiting.data as { requestId: string };
    rig.person.answer = 'allow';
    const spa = await click(tabId, 'button', 'Open inbox');
    expect(spa.result).toMatchObject({ effect: 'navigation-started' });
    expect(spa.url).toBe(`${origin()}/effects`);
    rig.person.decide(requestId, 'allow');
    rig.person.answer = 'nobody';
    const again = await tryClick(tabId, 'button', 'Changes the page');
    expect(again.data).toMatchObject({ needsApproval: true });
    expect((again.data as { requestId: string }).requestId).not.toBe(requestId);
    expect(await text(tabId)).toBe('');
    await close(tabId);
  });

  it('shows the person a PNG crop around the element and the whole script for execute_js', async () => {
    const tabId = await open('/effects');
    await click(tabId, 'button', 'Changes the page');
    const { request } = rig.person.asked.at(-1)!;
    expect(request.subject).toMatch(/^click button “Changes the page” — on /);
    expect(request.image).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(request.image!.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    expect(width).toBeGreaterThan(40); // the button and the margin around it
    expect(width).toBeLessThanOrEqual(400);
    expect(height).toBeGreaterThan(20);
    expect(height).toBeLessThanOrEqual(300);
    // A script is shown whole, every line of it, as the subject.
    const script = 'const a = 1;\nconst b = "two";\nreturn a + b.length;';
    const ran = await rig.kit.call('browser', { action: 'execute_js', tabId, script });
    expect(ran.isError, ran.text).toBe(false);
    expect(rig.person.asked.at(-1)!.request.subject).toContain(`run this script:\n${script}`);
    await close(tabId);
  });

  it('keeps the crop out of the list of waiting requests', async () => {
    rig.person.answer = 'nobody';
    const tabId = await open('/effects');
    const waiting = await tryClick(tabId, 'button', 'Changes the page');
    expect(waiting.data).toMatchObject({ needsApproval: true });
    expect(rig.person.asked.at(-1)!.request.image).toMatch(/^data:image\/png;base64,/);
    expect(rig.person.listed().every((entry) => !('image' in entry))).toBe(true);
    await close(tabId);
  });

  it('a denied act is refused and clicks nothing', async () => {
    rig.person.answer = 'deny';
    const tabId = await open('/effects');
    const out = await tryClick(tabId, 'button', 'Changes the page');
    expect(out.data).toMatchObject({ needsApproval: true, denied: true, operation: 'click' });
    expect(await text(tabId)).toBe('');
    await close(tabId);
  });

  it('honours a bare ref only under a standing grant', async () => {
    const tabId = await open('/effects');
    const ref = (await snapshot(tabId)).find((e) => e.name === 'Changes the page')!.ref!;
    const out = await rig.kit.call('browser', { action: 'act', tabId, operation: 'click', ref });
    expect(out.text).toMatch(
      /^NOT_GRANTED: a bare ref is honoured only for an operation allowed on this site/,
    );
    expect(rig.person.asked).toHaveLength(0);
    expect(await text(tabId)).toBe('');
    await close(tabId);
  });

  it('honours a bare ref once "allow on this site" was given for the operation', async () => {
    // On a connection of its own: a grant holds for the connection that was given it.
    const client = await rig.kit.connect('bare-ref-client');
    const on = async (tool: string, args: Record<string, unknown>) => {
      const out = (await client.callTool({ name: tool, arguments: args })) as {
        structuredContent?: Record<string, unknown>;
        content: { text: string }[];
      };
      return out;
    };
    const tabId = await open('/effects');
    rig.person.answer = 'allow-site';
    await on('browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Does nothing' });
    expect(rig.person.asked).toHaveLength(1);
    rig.person.answer = 'deny';
    const ref = (await snapshot(tabId)).find((e) => e.name === 'Changes the page')!.ref!;
    const out = await on('browser', { action: 'act', tabId, operation: 'click', ref });
    expect(out.content[0]!.text).not.toMatch(/^NOT_GRANTED/);
    expect(rig.person.asked).toHaveLength(1);
    expect(await text(tabId)).not.toBe('');
    // The grant is for clicks: typing by a bare ref is still refused without asking.
    const typed = await on('browser', { action: 'act', tabId, operation: 'type', ref, text: 'x' });
    expect(typed.content[0]!.text).toMatch(/^NOT_GRANTED/);
    expect(rig.person.asked).toHaveLength(1);
    await close(tabId);
  });

  it('never logs a typed value', async () => {
    const tabId = await open('/fields');
    await actOn(tabId, { operation: 'type', role: 'textbox', name: 'Email', text: 'typed-secret-5b1e' });
    const files = await readdir(rig.kit.home, { recursive: true, withFileTypes: true });
    for (const file of files.filter((f) => f.isFile())) {
      const body = await readFile(path.join(file.parentPath, file.name), 'utf8').catch(() => '');
      expect(body, file.name).not.toContain('typed-secret-5b1e');
    }
    await close(tabId);
  });
});

describe('act attacks', () => {
  it('a stale ref after navigation is a clear error', async () => {
    const tabId = await open('/effects');
    const ref = (await snapshot(tabId)).find((e) => e.name === 'Does nothing')!.ref!;
    await rig.kit.call('browser', { action: 'navigate', tabId, url: `${origin()}/landed` });
    const out = await rig.kit.call('browser', { action: 'act', tabId, operation: 'click', ref });
    expect(out.text).toMatch(/^STALE_REF: ref e\d+ is from an earlier page generation/);
    await close(tabId);
  });

  it('a standing grant for origin A does not cover B after a redirect', async () => {
    // On a connection of its own: a grant holds for the connection that was given it.
    const client = await rig.kit.connect('granted-client');
    const on = async (tool: string, args: Record<string, unknown>) => {
      const out = (await client.callTool({ name: tool, arguments: args })) as {
        structuredContent?: Record<string, unknown>;
        content: { text: string }[];
      };
      return (out.structuredContent ?? JSON.parse(out.content[0]!.text)) as Record<string, unknown> & Acted;
    };
    const tabId = await open('/effects');
    rig.person.answer = 'allow-site';
    await on('browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Does nothing' });
    expect(rig.person.asked).toHaveLength(1);
    rig.person.answer = 'deny';
    // The grant covers clicks on a.test without asking again…
    await on('browser', { action: 'act', tabId, operation: 'click', role: 'link', name: 'Elsewhere' });
    expect(rig.person.asked).toHaveLength(1);
    // …which led, through a redirect, to b.test: rig.person.asked there afresh (and refused).
    expect(await on('browser_read', { action: 'wait_for', tabId, urlContains: 'b.test' })).toMatchObject({
      matched: true,
    });
    const there = await on('browser', {
      action: 'act',
      tabId,
      operation: 'click',
      role: 'button',
      name: 'Here',
    });
    expect(rig.person.asked).toHaveLength(2);
    expect(rig.person.asked[1]!.request.origin).toBe(origin('b'));
    expect(there).toMatchObject({ needsApproval: true, denied: true });
    expect(await text(tabId)).toBe('');
    // The first connection never had the grant: it is rig.person.asked on a.test as before.
    const other = await open('/effects');
    await tryClick(other, 'button', 'Does nothing');
    expect(rig.person.asked).toHaveLength(3);
    await close(tabId);
    await close(other);
  });

  it('a page opening popups in a loop opens no tab and does not hold the call', async () => {
    const tabId = await open('/effects');
    const acted = await click(tabId, 'button', 'Open many');
    expect(acted.popup?.url).toMatch(/\/popup-0$/);
    const popups = rig.server.hits.filter((hit) => hit.path.startsWith('/popup-'));
    expect(popups.length).toBeLessThanOrEqual(1);
    // The call answered, and the tab takes the next act at once.
    expect((await click(tabId, 'button', 'Does nothing')).result).toMatchObject({
      effect: 'nothing-observable',
    });
    await close(tabId);
  });

  it('a page poisoning its own world cannot change what the isolated world checks', async () => {
    const tabId = await open('/poisoned');
    expect(await text(tabId, '#probe')).toBe('undefined');
    expect((await click(tabId, 'button', 'Real button')).result).toMatchObject({ effect: 'dom-changed' });
    expect(await text(tabId)).toBe('real;');
    await close(tabId);
  });

  it('a page telling the AI to run scripts gets nothing run without approval', async () => {
    rig.person.answer = 'nobody';
    const tabId = await open('/injection');
    const script = await rig.kit.call('browser', {
      action: 'execute_js',
      tabId,
      script: 'return document.cookie;',
    });
    expect(script.data).toMatchObject({ needsApproval: true, operation: 'eval' });
    const acted = await tryClick(tabId, 'button', 'Delete account');
    expect(acted.data).toMatchObject({ needsApproval: true, operation: 'click' });
    expect(await text(tabId)).toBe('');
    await close(tabId);
  });
});
