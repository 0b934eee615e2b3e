import { describe, expect, it } from 'vitest';
import { MAX_FAVICON_BYTES } from '../src/tabs/tab-favicon.js';
import { browserTabs, openHumanTab, personHostForFile, viewRequest } from './person-desk.js';

/*
 * Browser tabs in the editor's tab strip (ADR 56), in a real host with the browser plugin and one
 * Chromium: the page's icon, fetched by the page and kept only when it is a small picture; the
 * person closing a tab there, the AI's or their own, as browser.close would; the Browser panel,
 * which opens a tab of the person's own when no browser tab is open; and the "New browser tab"
 * editor command, which opens one blank, for the person to type its address.
 */

/** A PNG of one pixel, as browsers decode it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const page = (title: string, icon?: string) =>
  `<!doctype html><title>${title}</title>${icon === undefined ? '' : `<link rel="icon" href="${icon}">`}<p>${title}</p>`;

const rig = personHostForFile((server) => {
  const image = (path: string, type: string, body: Buffer | string) =>
    server.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    });
  server.html('/linked', page('Linked', '/icons/shop.png'));
  server.html('/plain', page('Plain'));
  server.html('/svg', page('Svg', '/icons/logo.svg'));
  server.html('/huge', page('Huge', '/icons/huge.png'));
  server.html('/lying', page('Lying', '/icons/lying.png'));
  server.html('/start', page('Start'));
  image('/icons/shop.png', 'image/png', PNG);
  image('/favicon.ico', 'image/png', PNG);
  image(
    '/icons/logo.svg',
    'image/svg+xml',
    '<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>',
  );
  image('/icons/huge.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(MAX_FAVICON_BYTES)]));
  image('/icons/lying.png', 'image/png', '<script>alert(1)</script>');
  // Committed at once, its title parsed later, and never loaded: its image is never answered.
  server.route('/late-title', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(`<!doctype html><html><head><!--${' '.repeat(2048)}-->`);
    setTimeout(() => res.end('<title>Late</title></head><body><img src="/never-answered"></body>'), 400);
  });
  server.route('/never-answered', () => undefined);
});

const origin = () => `http://a.test:${rig.server.port}`;
const strip = () => rig.kit.host.workbench.providedLabels('main');
const labelOf = (tabId: string) => strip().find((entry) => entry.state.id === tabId);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openAt(path: string): Promise<string> {
  const opened = await rig.kit.call('browser', { action: 'open', url: `${origin()}${path}` });
  expect(opened.isError, opened.text).toBe(false);
  return (opened.data as { tabId: string }).tabId;
}

/** The tab's icon once its look-up for the loaded page is over (it is fetched after the load). */
async function settledIcon(tabId: string, path: string): Promise<string | null> {
  const asked = (requested: string) => rig.server.count(requested);
  for (let i = 0; i < 100; i++) {
    const icon = labelOf(tabId)?.label.icon ?? null;
    if (icon !== null) return icon;
    if (asked(path) > 0) {
      // Asked: give the answer time to come back and be judged.
      await pause(300);
      return labelOf(tabId)?.label.icon ?? null;
    }
    await pause(50);
  }
  return null;
}

describe('a browser tab in the strip', () => {
  it("shows the page's linked icon as a data: picture of its own bytes", async () => {
    const tabId = await openAt('/linked');
    expect(await settledIcon(tabId, '/icons/shop.png')).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it("falls back to /favicon.ico of the page's origin, and clears it when another page loads", async () => {
    const tabId = await openAt('/plain');
    expect(await settledIcon(tabId, '/favicon.ico')).toMatch(/^data:image\/png;base64,/);
    const before = rig.server.count('/icons/logo.svg');
    const went = await rig.kit.call('browser', { action: 'navigate', tabId, url: `${origin()}/svg` });
    expect(went.isError, went.text).toBe(false);
    // The SVG was asked for and refused: no picture for the new page, none left from the old.
    await expect.poll(() => rig.server.count('/icons/logo.svg')).toBeGreaterThan(before);
    await pause(300);
    expect(labelOf(tabId)?.label.icon).toBeNull();
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('refuses an icon larger than the bound, or one whose bytes are no picture whatever its type says', async () => {
    for (const [path, icon] of [
      ['/huge', '/icons/huge.png'],
      ['/lying', '/icons/lying.png'],
    ] as const) {
      const tabId = await openAt(path);
      expect(await settledIcon(tabId, icon), path).toBeNull();
      expect(rig.server.count(icon), path).toBeGreaterThan(0);
      await rig.kit.call('browser', { action: 'close', tabId });
    }
  });

  it('shows the title of a page that never finishes loading, parsed after the page committed', async () => {
    const opened = await rig.kit.call('browser', {
      action: 'open',
      url: `${origin()}/late-title`,
      timeoutMs: 200,
    });
    expect(opened.data).toMatchObject({ error: 'TIMEOUT' });
    const { tabId } = opened.data as { tabId: string };
    await expect
      .poll(() => browserTabs(rig.kit).find((tab) => tab.id === tabId)?.title, { timeout: 10_000 })
      .toBe('Late');
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('is closed by the person from the strip, an AI tab as browser.close closes it', async () => {
    const tabId = await openAt('/start');
    expect(labelOf(tabId)?.closable).toBe(true);
    await rig.kit.host.workbench.closeProvided('main', tabId);
    expect(browserTabs(rig.kit).some((t) => t.id === tabId)).toBe(false);
    const after = await rig.kit.call('browser_read', { action: 'read', tabId });
    expect(after.text).toMatch(/^TAB_CLOSED: tab \S+ was closed/);
  });

  it("closes the person's own tab too, which the AI may not close", async () => {
    const tabId = await openHumanTab(rig.kit, `${origin()}/start`, `${origin()}/linked`);
    const refused = await rig.kit.call('browser', { action: 'close', tabId });
    expect(refused.text).toMatch(/^TAB_NOT_AI_OWNED: /);
    await rig.kit.host.workbench.closeProvided('main', tabId);
    expect(browserTabs(rig.kit).some((t) => t.id === tabId)).toBe(false);
    await expect(rig.kit.host.workbench.closeProvided('main', tabId)).rejects.toThrow(/Unknown tabId/);
  });
});

describe('the Browser panel', () => {
  const open = (params: unknown) => rig.kit.host.plugins.panels.request('browser', 'new-tab', 'open', params);

  it("opens a tab of the person's own with no browser tab open", async () => {
    expect(browserTabs(rig.kit)).toEqual([]);
    const { tabId } = (await open({ url: `${origin()}/linked` })) as { tabId: string };
    await expect.poll(() => browserTabs(rig.kit).find((t) => t.id === tabId)?.url).toBe(origin());
    expect(browserTabs(rig.kit).find((t) => t.id === tabId)).toMatchObject({
      automationMode: 'human',
      attached: false,
      active: false,
    });
    await rig.kit.host.workbench.closeProvided('main', tabId);
  });

  it('refuses what pages may not reach, or what is no address, opening nothing', async () => {
    await expect(open({ url: 'file:///etc/passwd' })).rejects.toThrow(/may not be opened/);
    await expect(open({ url: '   ' })).rejects.toThrow();
    await expect(open({ url: `${origin()}/`, tabId: 'tab-1' })).rejects.toThrow();
    expect(browserTabs(rig.kit)).toEqual([]);
  });
});

describe('the "New browser tab" editor command', () => {
  it('is contributed by the browser plugin, under Browser', () => {
    const command = rig.kit.host.plugins.editorCommands
      .list()
      .find((c) => c.declaration.id === 'browser.newTab');
    expect(command).toMatchObject({
      pluginId: 'browser',
      declaration: { title: 'New browser tab', category: 'Browser' },
    });
  });

  it("opens a blank tab of the person's own in the window it was run in, which they then drive", async () => {
    expect(browserTabs(rig.kit)).toEqual([]);
    const note = await rig.kit.editor.runCommand('browser.newTab', null);
    const [tab, ...more] = browserTabs(rig.kit);
    expect(more).toEqual([]);
    expect(note).toBe(
      `Opened ${tab!.id}, a browser tab of your own: pick it in the tab strip and type an address.`,
    );
    // The same tab as the Browser panel's: the person's, never the AI's focus, not attached.
    expect(tab).toMatchObject({ automationMode: 'human', attached: false, active: false });
    expect(labelOf(tab!.id)?.label).toMatchObject({ title: 'New tab', badge: 'Human' });
    const state = () =>
      viewRequest(rig.kit, 'state', { tabId: tab!.id }) as Promise<{
        url: string;
        title: string;
        driver: string;
      }>;
    expect(await state()).toMatchObject({ url: 'about:blank', automationMode: 'human' });

    // The person types an address in its address bar: the page loads there.
    await viewRequest(rig.kit, 'navigate', { tabId: tab!.id, url: `${origin()}/plain` });
    await expect.poll(async () => (await state()).title).toBe('Plain');
    expect(browserTabs(rig.kit).find((t) => t.id === tab!.id)).toMatchObject({
      url: origin(),
      attached: false,
    });
    await rig.kit.host.workbench.closeProvided('main', tab!.id);
  });
});
