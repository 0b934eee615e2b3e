import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { outcomeOf, startTestHost, type TestHost, type ToolOutcome } from '@vmark/sdk/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserUnderTest } from './browser-rig.js';
import { type PageServer, startPageServer } from './page-server.js';

/*
 * `style` as an MCP client sees it: the browser plugin in a real host (one Chromium for the
 * file), pages served in-process on 127.0.0.1 (origin A) and localhost (origin B, the same
 * server), and a real SDK client whose elicitation answers stand for the person at it.
 */

const PAGE = `<!doctype html><title>Shop</title>
<style>.hidden { display: none; } .loud { color: rgb(255, 0, 0); }</style>
<div class="cmp-overlay old" style="position: fixed; inset: 0">Accept cookies</div>
<p class="item">One</p><p class="item">Two</p>
<button id="go">Go</button>
<a href="/other">Other page</a>`;

let kit: TestHost;
let pages: PageServer;
let originB: string;
let client: Client;
/** What the person is asked, in order: the question and the form. */
let asked: ElicitRequest['params'][];
/** How the person answers the next questions (then declines). */
let answers: ElicitResult[];
/** The tabs a test opened, closed after it (at most 8 may be open). */
const tabs: string[] = [];
const saved = process.env.VMARK_BROWSER_ALLOW_PRIVATE;

const ONCE: ElicitResult = { action: 'accept', content: { allow: 'once' } };
const ON_SITE: ElicitResult = { action: 'accept', content: { allow: 'site' } };
const DECLINE: ElicitResult = { action: 'decline' };

beforeAll(async () => {
  process.env.VMARK_BROWSER_ALLOW_PRIVATE = '1';
  pages = await startPageServer();
  originB = `http://localhost:${pages.port}`;
  pages.html('/', PAGE);
  pages.html('/other', PAGE);
  pages.route('/to-b', (_req, res) => {
    res.writeHead(302, { location: `${originB}/` });
    res.end();
  });
  kit = await startTestHost({ plugins: [browserUnderTest] });
}, 60_000);

afterAll(async () => {
  await kit?.dispose();
  await pages?.close();
  if (saved === undefined) delete process.env.VMARK_BROWSER_ALLOW_PRIVATE;
  else process.env.VMARK_BROWSER_ALLOW_PRIVATE = saved;
});

beforeEach(async () => {
  asked = [];
  answers = [];
  // A connection of its own per test: grants are per connection, so none carries over.
  client = await kit.connect('style-test', {
    elicit: (params) => {
      asked.push(params);
      return answers.shift() ?? DECLINE;
    },
  });
});

/** The form of the `index`-th question (an approval is always a form, never a URL). */
function formOf(index: number): unknown {
  const params = asked[index]!;
  if (!('requestedSchema' in params)) throw new Error('the question was not a form');
  return params.requestedSchema;
}

afterEach(async () => {
  for (const tabId of tabs.splice(0)) await call({ action: 'close', tabId });
});

async function call(args: Record<string, unknown>): Promise<ToolOutcome> {
  return outcomeOf((await client.callTool({ name: 'browser', arguments: args })) as CallToolResult);
}

async function open(url = `${pages.origin}/`): Promise<string> {
  const opened = await call({ action: 'open', url });
  expect(opened.isError, opened.text).toBe(false);
  const { tabId } = opened.data as { tabId: string };
  tabs.push(tabId);
  return tabId;
}

/** The ref `read` gives the element of this role and name. */
async function refOf(tabId: string, role: string, name: string): Promise<string> {
  const read = outcomeOf(
    (await client.callTool({ name: 'browser_read', arguments: { action: 'read', tabId } })) as CallToolResult,
  );
  const entry = (read.data as { snapshot: { role: string; name: string; ref?: string }[] }).snapshot.find(
    (e) => e.role === role && e.name === name,
  );
  expect(entry?.ref, read.text).toBeDefined();
  return entry!.ref!;
}

/** The elements a selector matches, with their classes and some computed styles (a read: nobody is asked). */
async function look(tabId: string, selector: string) {
  const query = outcomeOf(
    (await client.callTool({
      name: 'browser_read',
      arguments: {
        action: 'query',
        tabId,
        selector,
        fields: { attributes: true, styles: ['display', 'color', 'outline-style'] },
      },
    })) as CallToolResult,
  );
  expect(query.isError, query.text).toBe(false);
  return (
    query.data as {
      elements: { attributes?: Record<string, string>; styles?: Record<string, string> }[];
    }
  ).elements;
}

describe('style applies exactly the approved change', () => {
  it('sets properties and classes on the element a ref names', async () => {
    const tabId = await open();
    const ref = await refOf(tabId, 'button', 'Go');
    answers = [ONCE];
    const styled = await call({
      action: 'style',
      tabId,
      ref,
      set: { 'outline-style': 'dashed', color: 'rgb(0, 0, 255) !important', 'not-a-property': 'x' },
      addClasses: ['marked'],
    });
    expect(styled.isError, styled.text).toBe(false);
    expect(styled.data).toMatchObject({ elements: 1, rejected: ['not-a-property'], generation: 1 });
    const [button] = await look(tabId, '#go');
    expect(button!.styles).toMatchObject({ 'outline-style': 'dashed', color: 'rgb(0, 0, 255)' });
    expect(button!.attributes?.class).toBe('marked');
    // The person saw the element, the whole change and the page it is on.
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain('allow style on');
    expect(asked[0]!.message).toContain(`button#go \\"Go\\" (ref ${ref})`);
    expect(asked[0]!.message).toContain('set outline-style: dashed; color: rgb(0, 0, 255) !important');
    expect(asked[0]!.message).toContain('add the classes marked');
  });

  it('applies to every element a selector matches, and injects page-wide CSS', async () => {
    const tabId = await open();
    answers = [ONCE, ONCE];
    const hidden = await call({
      action: 'style',
      tabId,
      selector: '.cmp-overlay',
      addClasses: ['hidden'],
      removeClasses: ['old'],
    });
    expect(hidden.data).toMatchObject({ elements: 1 });
    expect(await look(tabId, '.cmp-overlay')).toMatchObject([
      { attributes: { class: 'cmp-overlay hidden' }, styles: { display: 'none' } },
    ]);
    const css = '.item { color: rgb(0, 128, 0); }\n#go { display: none; }';
    const injected = await call({ action: 'style', tabId, injectCss: css });
    expect(injected.data).toMatchObject({ elements: 0, injectedRules: 2 });
    expect((await look(tabId, '.item')).map((e) => e.styles?.color)).toEqual([
      'rgb(0, 128, 0)',
      'rgb(0, 128, 0)',
    ]);
    expect(asked[1]!.message).toContain(`add this page-wide CSS (${Buffer.byteLength(css)} bytes)`);
    expect(asked[1]!.message).toContain('#go { display: none; }');
  });
});

describe('style refuses bad input before anyone is asked, and changes nothing', () => {
  let tabId: string;
  beforeEach(async () => {
    tabId = await open();
    asked = [];
  });

  it.each(
    (
      [
        [{}, 'style requires one of: set, addClasses, removeClasses, injectCss'],
        [{ selector: '#go' }, 'style requires one of: set, addClasses, removeClasses, injectCss'],
        [
          { ref: 'e1', selector: '#go', addClasses: ['a'] },
          'style takes either `ref` or `selector`, not both',
        ],
        [{ set: { display: 'none' } }, 'style needs a `ref` (from read) or a `selector` for set'],
        [
          { selector: '#go', injectCss: 'p {}' },
          'injectCss is page-wide, not scoped to a `ref` or `selector`',
        ],
        [{ selector: '#go', addClasses: ['a b'] }, 'addClasses: "a b" is not a class name'],
        [{ selector: '#go', removeClasses: [''] }, 'removeClasses: "" is not a class name'],
        [{ selector: '#go', addClasses: [] }, 'addClasses must name at least one class'],
        [
          { selector: '#go', addClasses: ['x'], removeClasses: ['x'] },
          'cannot both add and remove the class "x"',
        ],
        [{ selector: '#go', set: { 'color; x': 'red' } }, 'is not a CSS property name'],
        [{ selector: '#go', set: { color: 3 } }, 'set maps CSS property names to values (strings)'],
        [{ injectCss: 'a'.repeat(64 * 1024 + 1) }, 'injectCss must be at most 65536 bytes of UTF-8'],
        // 21 846 three-byte characters: fewer than 64 Ki characters, more than 64 KiB.
        [{ injectCss: '語'.repeat(21_846) }, 'injectCss must be at most 65536 bytes of UTF-8'],
        [{ selector: 'div[', addClasses: ['a'] }, 'style: "div[" is not a valid CSS selector'],
        [
          { selector: '.nothing-here', addClasses: ['a'] },
          'NO_MATCH: style: no element matches the selector',
        ],
      ] as [Record<string, unknown>, string][]
    ).map(([args, message]) => ({ args, message })),
  )('refuses: $message', async ({ args, message }) => {
    const refused = await call({ action: 'style', tabId, ...args });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(message);
    expect(asked).toEqual([]);
    expect(await look(tabId, '#go')).toMatchObject([{ styles: { display: 'inline-block' } }]);
  });

  it('takes injectCss of exactly 64 KiB', async () => {
    answers = [ONCE];
    const css = `/*${'a'.repeat(64 * 1024 - 4)}*/`;
    const injected = await call({ action: 'style', tabId, injectCss: css });
    expect(injected.isError, injected.text).toBe(false);
  });

  it('refuses a stale ref after the page navigated, and one never given out', async () => {
    const ref = await refOf(tabId, 'button', 'Go');
    expect((await call({ action: 'navigate', tabId, url: `${pages.origin}/other` })).isError).toBe(false);
    const stale = await call({ action: 'style', tabId, ref, addClasses: ['a'] });
    expect(stale.text).toMatch(/^STALE_REF: ref e\d+ is from an earlier page generation/);
    const unknown = await call({ action: 'style', tabId, ref: 'e99999', addClasses: ['a'] });
    expect(unknown.text).toMatch(/^UNKNOWN_REF: /);
    const malformed = await call({ action: 'style', tabId, ref: 'button', addClasses: ['a'] });
    expect(malformed.text).toMatch(/^UNKNOWN_REF: "button" is not a ref/);
    expect(asked).toEqual([]);
  });
});

describe('style approvals through elicitation', () => {
  it('offers accept once / accept on this site / decline, and a decline changes nothing', async () => {
    const tabId = await open();
    answers = [DECLINE];
    const declined = await call({ action: 'style', tabId, selector: '#go', addClasses: ['hidden'] });
    expect(declined.isError).toBe(true);
    expect(declined.text).toMatch(/^the user declined 'style' on http:\/\/127\.0\.0\.1:\d+\/\. Do not retry/);
    expect(declined.structured).toMatchObject({ needsApproval: true, denied: true, operation: 'style' });
    expect(formOf(0)).toEqual({
      type: 'object',
      properties: {
        allow: expect.objectContaining({
          type: 'string',
          oneOf: [
            { const: 'once', title: 'Accept once' },
            { const: 'site', title: `Accept on this site (${pages.origin})` },
          ],
          default: 'once',
        }),
      },
      required: ['allow'],
    });
    expect(await look(tabId, '#go')).toMatchObject([{ attributes: { id: 'go' } }]);
    expect((await look(tabId, '#go'))[0]!.attributes).not.toHaveProperty('class');
  });

  it('asks again after "accept once"; not after "accept on this site", on that origin only', async () => {
    const tabId = await open();
    answers = [ONCE, ON_SITE];
    const change = { action: 'style', tabId, selector: '#go', addClasses: ['a'] };
    expect((await call(change)).isError).toBe(false);
    expect((await call({ ...change, addClasses: ['b'] })).isError).toBe(false);
    expect(asked).toHaveLength(2);
    // Standing now: another change on the same origin, and after a navigation on it, is not asked.
    expect((await call({ ...change, addClasses: ['c'] })).isError).toBe(false);
    expect((await call({ action: 'navigate', tabId, url: `${pages.origin}/other` })).isError).toBe(false);
    expect((await call({ ...change, addClasses: ['d'] })).isError).toBe(false);
    expect(asked).toHaveLength(2);
    // A redirect to origin B: the grant for A does not cover it.
    const redirected = await call({ action: 'navigate', tabId, url: `${pages.origin}/to-b` });
    expect(redirected.data).toMatchObject({ url: `${originB}/` });
    const onB = await call({ ...change, addClasses: ['e'] });
    expect(onB.isError).toBe(true);
    expect(asked).toHaveLength(3);
    expect(asked[2]!.message).toContain(`(origin "${originB}")`);
  });

  it('never offers "on this site" for execute_js, and an "on this site" answer does not stand', async () => {
    const tabId = await open();
    answers = [ON_SITE, ON_SITE];
    const first = await call({ action: 'execute_js', tabId, script: 'return 1;' });
    expect(formOf(0)).toEqual({ type: 'object', properties: {} });
    // The form offered no choice: the accept counts once.
    expect(first.data).toMatchObject({ result: 1 });
    expect((await call({ action: 'execute_js', tabId, script: 'return 1;' })).data).toMatchObject({
      result: 1,
    });
    expect(asked).toHaveLength(2);
  });
});
