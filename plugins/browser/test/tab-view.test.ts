import { SettingsToken } from '@vmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSettings } from '../src/browser-settings.js';
import { systemResolver } from '../src/guard/resolver.js';
import type { ListedEntry } from '../src/tabs/tab-activity.js';
import { browserViewProvider, type ViewMessage } from '../src/view/browser-view-provider.js';
import { type Rig, startRig } from './browser-rig.js';
import { personHostForFile } from './person-desk.js';

/*
 * A browser tab's view provider (ADR 49) in a real host with the browser plugin and one Chromium:
 * the picture and state a view watches, the person's input reaching the page and taking the tab
 * over (the AI refused until it is handed back), the wheel, back, forward and reload, who drives
 * in the shared posture, and what the editor page may send but must not get its way with. Apart,
 * with the plugin's parts wired around a host of their own: a view no longer shown stops the
 * picture in Chromium itself.
 */

const PAGE = `<!doctype html><title>Counter</title>
<style>body{margin:0} #add{position:absolute;left:20px;top:20px;width:100px;height:40px}
#name{position:absolute;left:20px;top:200px;width:200px;height:30px}</style>
<button id="add">Add</button><p id="log" style="margin-top:80px">count 0</p>
<input id="name" aria-label="Name"><p id="echo" style="margin-top:60px"></p>
<script>let n = 0; add.onclick = () => { log.textContent = 'count ' + ++n; };
const field = document.getElementById('name'); field.oninput = () => { echo.textContent = field.value; };</script>`;

const rig = personHostForFile((server) => {
  server.html('/', PAGE);
  server.html('/next', '<!doctype html><title>Next</title><p>next</p>');
  server.html(
    '/tall',
    `<!doctype html><title>Tall</title><p id="y" style="position:fixed;top:0">0</p><div style="height:5000px"></div>
<script>addEventListener('scroll', () => { y.textContent = String(Math.round(scrollY)); });</script>`,
  );
});

const views = () => rig.kit.host.plugins.views;
const ask = (method: string, params: unknown) => views().request('browser', 'browser', method, params);
const origin = () => `http://a.test:${rig.server.port}`;

async function openTab(path = '/'): Promise<string> {
  const opened = await rig.kit.call('browser', { action: 'open', url: `${origin()}${path}` });
  expect(opened.isError, opened.text).toBe(false);
  return (opened.data as { tabId: string }).tabId;
}

async function log(tabId: string, selector = '#log'): Promise<string> {
  const out = await rig.kit.call('browser_read', { action: 'query', tabId, selector });
  return (out.data as { elements: { text: string }[] }).elements[0]?.text ?? '';
}

const clickAdd = (tabId: string) =>
  rig.kit.call('browser', { action: 'act', tabId, operation: 'click', role: 'button', name: 'Add' });

const personClicks = async (tabId: string, x: number, y: number) => {
  for (const type of ['down', 'up'] as const)
    await ask('input', { tabId, input: { type, x, y, button: 'left', clickCount: 1 } });
};

type Listed = ListedEntry;

/** The tab's activity once no picture is pending (each is taken within a bound, so this ends). */
async function settled(tabId: string): Promise<Listed[]> {
  for (;;) {
    const { entries } = (await ask('activity', { tabId })) as { entries: Listed[] };
    if (entries.every((entry) => entry.picture !== 'pending')) return entries;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Newest first: once an entry has its picture, no older entry is still waiting for one. */
function expectPicturesInOrder(list: readonly Listed[]): void {
  const newestPictured = list.findIndex((entry) => entry.picture === 'ready');
  if (newestPictured < 0) return;
  expect(list.slice(newestPictured).map((entry) => entry.picture)).not.toContain('pending');
}

/** Watches the tab as a view does; `next` waits for the next message that `fits`. */
function watchTab(tabId: string) {
  const got: ViewMessage[] = [];
  const waiting: Array<{ fits: (m: ViewMessage) => boolean; resolve: (m: ViewMessage) => void }> = [];
  let ended = false;
  const watch = views().watch(
    'browser',
    'browser',
    tabId,
    (data) => {
      const message = data as ViewMessage;
      got.push(message);
      for (const wait of [...waiting])
        if (wait.fits(message)) {
          waiting.splice(waiting.indexOf(wait), 1);
          wait.resolve(message);
        }
    },
    () => (ended = true),
  );
  return {
    got,
    get ended() {
      return ended;
    },
    next: (fits: (m: ViewMessage) => boolean) =>
      new Promise<ViewMessage>((resolve) => waiting.push({ fits, resolve })),
    stop: () => watch.dispose(),
  };
}

describe('the browser tab view', () => {
  it("sends the tab's state at once, then its picture, and a new picture when the page changes", async () => {
    const tabId = await openTab();
    const view = watchTab(tabId);
    expect(view.got[0]).toEqual({
      type: 'state',
      url: `${origin()}/`,
      title: 'Counter',
      loading: false,
      driver: 'ai',
      automationMode: 'ai-sandbox',
    });
    const first = await view.next((m) => m.type === 'frame');
    expect(first).toMatchObject({ type: 'frame', width: 1280, height: 720 });
    expect(Buffer.from((first as { jpeg: string }).jpeg, 'base64').subarray(0, 2)).toEqual(
      Buffer.from([0xff, 0xd8]),
    );
    const changed = view.next((m) => m.type === 'frame');
    expect((await clickAdd(tabId)).isError).toBe(false);
    expect((await changed) as { jpeg: string }).not.toEqual(first);
    view.stop();
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it("takes the tab over on the person's first input, refusing the AI until they hand it back", async () => {
    const tabId = await openTab();
    const view = watchTab(tabId);
    const human = view.next((m) => m.type === 'state' && m.driver === 'human');
    await personClicks(tabId, 70, 40);
    expect(await log(tabId)).toBe('count 1');
    await human;

    for (const args of [
      { action: 'act', operation: 'click', role: 'button', name: 'Add' },
      { action: 'style', selector: '#add', addClasses: ['x'] },
      { action: 'execute_js', script: 'document.title' },
      { action: 'navigate', url: `${origin()}/next` },
    ]) {
      const refused = await rig.kit.call('browser', { tabId, ...args });
      expect(refused.isError, args.action).toBe(true);
      expect(refused.structured).toMatchObject({
        error: 'LEASE_LOST',
        message: 'the human is currently driving this tab',
        tabId,
      });
    }
    // Nobody was asked, and nothing happened to the page.
    expect(rig.person.asked).toEqual([]);
    expect(await log(tabId)).toBe('count 1');

    const ai = view.next((m) => m.type === 'state' && m.driver === 'ai');
    expect(await ask('handBack', { tabId })).toMatchObject({ driver: 'ai' });
    await ai;
    expect((await clickAdd(tabId)).isError).toBe(false);
    expect(await log(tabId)).toBe('count 2');
    view.stop();
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('lists what the AI did in the tab, newest first, each picture after its entry, without what it typed', async () => {
    const tabId = await openTab();
    const view = watchTab(tabId);
    expect((await clickAdd(tabId)).isError).toBe(false);
    await settled(tabId);
    const secret = 'hunter2-not-shown';
    rig.person.answer = 'allow-site';
    const typed = await rig.kit.call('browser', {
      action: 'act',
      tabId,
      operation: 'type',
      role: 'textbox',
      name: 'Name',
      text: secret,
    });
    expect(typed.isError, typed.text).toBe(false);
    await settled(tabId);
    rig.person.answer = 'deny';
    expect((await clickAdd(tabId)).structured).toMatchObject({ needsApproval: true, denied: true });
    await settled(tabId);
    const went = await rig.kit.call('browser', { action: 'navigate', tabId, url: `${origin()}/next` });
    expect(went.isError, went.text).toBe(false);
    const entries = await settled(tabId);

    expect(entries.map((entry) => [entry.kind, entry.what, entry.outcome])).toEqual([
      ['navigation', `navigate ${origin()}/next`, 'HTTP 200'],
      ['refusal', 'click button “Add”', 'approval denied'],
      ['approval', 'click button “Add”', 'denied'],
      ['act', 'type into textbox “Name”', 'done'],
      ['approval', 'type into textbox “Name”', 'allowed on this site'],
      ['act', 'click button “Add”', 'dom-changed'],
      ['approval', 'click button “Add”', 'allowed once'],
      ['navigation', `open ${origin()}/`, 'HTTP 200'],
    ]);
    expect(JSON.stringify(entries)).not.toContain(secret);
    // Each call waited for its pictures here, so no page changed before one was taken.
    expect(entries.map((entry) => entry.picture)).toEqual(entries.map(() => 'ready'));
    const { jpeg } = (await ask('activityPicture', { tabId, entryId: entries[3]!.id })) as { jpeg: string };
    expect(Buffer.from(jpeg, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    // The view was told the list when it began watching, then of each entry as it came — its
    // picture still pending — and again as pictures came, never a later entry's before an earlier's.
    const told = view.got.flatMap((m) => (m.type === 'activity' ? [m.entries] : []));
    expect(told[0]!.map((entry) => entry.what)).toEqual([`open ${origin()}/`]);
    const added = entries.slice(0, -1).reverse();
    for (const entry of added) {
      const first = told.find((list) => list.some((listed) => listed.id === entry.id))!;
      expect(first.find((listed) => listed.id === entry.id)!.picture, entry.what).toBe('pending');
    }
    for (const list of told) expectPicturesInOrder(list);
    expect(told.length).toBeGreaterThan(1 + added.length);
    expect(told.length).toBeLessThanOrEqual(1 + 2 * added.length + 1);
    expect(told.at(-1)).toEqual(entries);
    await expect(ask('activityPicture', { tabId, entryId: -1 })).rejects.toThrow();
    view.stop();
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('refuses an act whose approval was being asked when the person took the tab, though they then allow it', async () => {
    const tabId = await openTab();
    rig.person.answer = 'hold';
    const acting = clickAdd(tabId);
    while (rig.person.asked.length === 0) await new Promise((r) => setTimeout(r, 20));

    await personClicks(tabId, 70, 40);
    expect(await log(tabId)).toBe('count 1');
    rig.person.answerHeld('allow');
    const refused = await acting;
    expect(refused.isError).toBe(true);
    expect(refused.structured).toMatchObject({
      error: 'LEASE_LOST',
      message: 'the human is currently driving this tab',
      tabId,
    });
    // The AI's click never happened: only the person's did.
    expect(await log(tabId)).toBe('count 1');

    await ask('handBack', { tabId });
    rig.person.reset();
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('pauses a running workflow when the person takes its tab, and refuses a new run until they hand it back', async () => {
    const tabId = await openTab();
    rig.person.answer = 'hold';
    const source = '---\nsite: counter\n---\n1. action: click "Add" (button)\n';
    const started = await rig.kit.call('browser', { action: 'workflow_run', tabId, source });
    expect(started.isError, started.text).toBe(false);
    const { runId } = started.data as { runId: string };
    const status = async () =>
      (await rig.kit.call('browser_read', { action: 'workflow_status', runId })).data as {
        status: string;
        reasonCode?: string;
        pendingApproval?: unknown;
      };
    while ((await status()).pendingApproval === undefined) await new Promise((r) => setTimeout(r, 50));

    await personClicks(tabId, 70, 40);
    expect(await status()).toMatchObject({ status: 'paused', reasonCode: 'lease-lost' });
    // The run's question was taken back, and its click never happened.
    expect(rig.person.waiting()).toEqual([]);
    expect(await log(tabId)).toBe('count 1');
    const again = await rig.kit.call('browser', { action: 'workflow_run', tabId, source });
    expect(again.structured).toMatchObject({
      error: 'LEASE_LOST',
      message: 'the human is currently driving this tab',
    });

    await ask('handBack', { tabId });
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('types keys into the page, navigates from the address bar and goes back', async () => {
    const tabId = await openTab();
    await personClicks(tabId, 100, 215);
    for (const key of ['Shift', 'H', 'Shift', 'i', 'Backspace', 'o']) {
      await ask('input', { tabId, input: { type: 'keydown', key } });
      await ask('input', { tabId, input: { type: 'keyup', key } });
    }
    expect(await log(tabId, '#echo')).toBe('Ho');

    const state = async () => (await ask('state', { tabId })) as ViewMessage & { type: 'state' };
    await ask('navigate', { tabId, url: `${origin()}/next` });
    await expect.poll(async () => (await state()).title).toBe('Next');
    expect(await state()).toMatchObject({ url: `${origin()}/next`, driver: 'human' });
    await ask('back', { tabId });
    await expect.poll(async () => (await state()).url).toBe(`${origin()}/`);
    await ask('handBack', { tabId });
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it("scrolls the page by the person's wheel over it, and takes the tab over", async () => {
    const tabId = await openTab('/tall');
    expect(await log(tabId, '#y')).toBe('0');
    await ask('input', { tabId, input: { type: 'wheel', x: 300, y: 300, dx: 0, dy: 800 } });
    await expect.poll(async () => Number(await log(tabId, '#y'))).toBeGreaterThan(0);
    expect(((await ask('state', { tabId })) as ViewMessage & { type: 'state' }).driver).toBe('human');
    await ask('handBack', { tabId });
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('goes forward again after back, and reloads the page from its server', async () => {
    const tabId = await openTab();
    const url = async () => ((await ask('state', { tabId })) as ViewMessage & { type: 'state' }).url;
    const loading = async () => ((await ask('state', { tabId })) as { loading: boolean }).loading;
    await ask('navigate', { tabId, url: `${origin()}/next` });
    await expect.poll(url).toBe(`${origin()}/next`);
    // Loaded, as a person sees it before going back: a step taken while the navigation is still under
    // way may be lost under load (a CI run saw the tab stay on /next), which is not what this test is about.
    await expect.poll(loading).toBe(false);
    await ask('back', { tabId });
    await expect.poll(url).toBe(`${origin()}/`);
    await ask('forward', { tabId });
    await expect.poll(url).toBe(`${origin()}/next`);
    const fetched = rig.server.count('/next');
    await ask('reload', { tabId });
    await expect.poll(() => rig.server.count('/next')).toBe(fetched + 1);
    await expect.poll(loading).toBe(false);
    expect(await url()).toBe(`${origin()}/next`);
    await ask('handBack', { tabId });
    await rig.kit.call('browser', { action: 'close', tabId });
  });

  it('says "AI shared" for a tab of the shared posture, in the strip and in the view', async () => {
    // The host's settings store, as Settings writes it (the SDK's view of it only reads).
    const store = rig.kit.host.container.get(SettingsToken) as unknown as {
      set(key: string, value: unknown): Promise<void>;
      reset(key: string): Promise<void>;
    };
    await store.set('browser.posture', 'shared');
    try {
      // The shared posture asks before each new site: the person allows it.
      const tabId = await openTab();
      expect(rig.person.asked.map((question) => question.request.operation)).toEqual(['navigate']);
      const label = rig.kit.host.workbench.providedLabels('main').find((entry) => entry.state.id === tabId);
      expect(label?.label.badge).toBe('AI shared');
      expect(await ask('state', { tabId })).toMatchObject({ driver: 'ai', automationMode: 'ai-shared' });
      await rig.kit.call('browser', { action: 'close', tabId });
    } finally {
      await store.reset('browser.posture');
    }
    const sandboxed = await openTab();
    expect(await ask('state', { tabId: sandboxed })).toMatchObject({ automationMode: 'ai-sandbox' });
    await rig.kit.call('browser', { action: 'close', tabId: sandboxed });
  });

  it('refuses what the editor page must not do, and takes nothing over for it', async () => {
    const tabId = await openTab();
    const refusals: Array<[string, unknown, RegExp]> = [
      ['input', { tabId: 'tab-999', input: { type: 'move', x: 1, y: 1 } }, /tab-999/],
      ['input', { tabId, input: { type: 'explode' } }, /not an input event/],
      ['input', { tabId, input: { type: 'move', x: Number.NaN, y: 1 } }, /not an input event/],
      ['input', { tabId, input: { type: 'move', x: 1, y: 1, extra: true } }, /not an input event/],
      ['input', { tabId, input: { type: 'text', text: 'x'.repeat(5000) } }, /not an input event/],
      ['navigate', { tabId, url: 'javascript:alert(1)' }, /may not be opened: only http and https/],
      ['navigate', { tabId, url: 'file:///etc/passwd' }, /may not be opened: only http and https/],
      ['back', { tabId, extra: 1 }, /Unrecognized key/],
      ['toString', { tabId }, /has no request "toString"/],
    ];
    for (const [method, params, message] of refusals)
      await expect(ask(method, params), method).rejects.toThrow(message);
    expect(((await ask('state', { tabId })) as ViewMessage & { type: 'state' }).driver).toBe('ai');
    expect(() =>
      views().watch(
        'browser',
        'browser',
        'tab-999',
        () => undefined,
        () => undefined,
      ),
    ).toThrow(/tab-999/);
    expect(await log(tabId)).toBe('count 0');
    await rig.kit.call('browser', { action: 'close', tabId });
  });
});

describe('a view no longer shown', () => {
  let parts: Rig | undefined;
  beforeAll(async () => {
    parts = await startRig({ allowPrivateNetwork: false });
  }, 60_000);
  afterAll(() => parts?.dispose());

  it('stops the screencast in Chromium once its last watcher stops: no frame comes when the page changes', async () => {
    const { registry, kit } = parts!;
    const provider = browserViewProvider({
      registry,
      resolver: systemResolver(''),
      settings: new BrowserSettings(kit.host.container.get(SettingsToken), {}),
    });
    const tab = await parts!.open();
    // The tab's own CDP session, where the screencast's frames arrive (and are counted here).
    const session = await tab.world.session();
    let cast = 0;
    const arrivals: Array<() => void> = [];
    session.on('Page.screencastFrame', () => {
      cast++;
      for (const arrived of arrivals.splice(0)) arrived();
    });
    const nextCast = () => new Promise<void>((resolve) => arrivals.push(resolve));
    /** Changes the page and lets Chromium draw it: two animation frames, then a fresh screenshot. */
    const repaint = async (colour: string) => {
      await tab.page.evaluate(async (background) => {
        document.body.style.background = background;
        for (let n = 0; n < 2; n++) await new Promise((resolve) => requestAnimationFrame(resolve));
      }, colour);
      await session.send('Page.captureScreenshot', { format: 'jpeg', quality: 10 });
    };
    /** A view watching the tab, as the editor page's subscription does; returns its stop. */
    const watch = (send: (message: ViewMessage) => void): (() => void) => {
      const stop = provider.watch?.(tab.id, (message) => send(message as ViewMessage));
      if (typeof stop !== 'function') throw new Error('the provider has no stop for a watch');
      return stop;
    };
    const watchers = [0, 1].map(() => {
      const got: string[] = [];
      return { got, stop: watch((message) => got.push(message.type)) };
    });

    // Watched: a change of the page is cast, to each watcher.
    let coming = nextCast();
    await repaint('red');
    await coming;
    await expect.poll(() => watchers.every(({ got }) => got.includes('frame'))).toBe(true);
    // One watcher left: still cast.
    watchers[0]!.stop();
    coming = nextCast();
    await repaint('green');
    await coming;

    // The last one stops: after the browser has answered what was sent before, nothing is cast.
    watchers[1]!.stop();
    // Frames the browser drew before the stop reached it may still be on their way: wait until
    // none has come for a while (a still page casts nothing, stopped or not; the changes below
    // are what tell the two apart).
    for (let seen = -1; seen !== cast;) {
      seen = cast;
      await new Promise((resolve) => setTimeout(resolve, 200));
      await session.send('Runtime.evaluate', { expression: '1' });
    }
    const before = { cast, got: watchers.map(({ got }) => got.length) };
    await repaint('blue');
    await repaint('yellow');
    expect(cast).toBe(before.cast);
    expect(watchers.map(({ got }) => got.length)).toEqual(before.got);

    // Watched again: the picture comes back.
    coming = nextCast();
    const again = watch(() => undefined);
    await repaint('white');
    await coming;
    again();
    await registry.close(tab);
  });
});
