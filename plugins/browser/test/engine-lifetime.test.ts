import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Rig, startRig } from './browser-rig.js';
import { chromiumProcesses } from './chromium-processes.js';
import { type PageServer, startPageServer } from './page-server.js';

/*
 * When the browser runs (issue 13, engine): started by the first browser call, not by the host;
 * stopped once no tab has been open for the idle time, and started again by the next call;
 * stopped with the host. Counted as this test's Chromium processes, read from /proc.
 */

/** Short, so that the test sees the browser stop; the plugin's is two minutes. */
const IDLE_MS = 500;

let pages: PageServer;
let rig: Rig;
let disposed = false;

beforeAll(async () => {
  pages = await startPageServer();
  pages.html('/', '<title>home</title><p>hello');
  rig = await startRig({ allowPrivateNetwork: true, idleMs: IDLE_MS });
});
afterAll(async () => {
  if (!disposed) await rig?.dispose();
  await pages?.close();
});

const browsers = () => chromiumProcesses(process.pid).filter((p) => p.type === 'browser');

const open = async () => {
  const tab = await rig.open();
  await rig.navigator.navigate(tab, `${pages.origin}/`, 9000, rig.call);
  return tab;
};

describe('the browser process', () => {
  it('is not started by the host, only by the first tab', async () => {
    expect(browsers()).toEqual([]);
    const tab = await open();
    expect(browsers()).toHaveLength(1);
    await rig.registry.close(tab);
  });

  it('stops when no tab has been open for the idle time, and the next tab starts it again', async () => {
    await expect.poll(() => browsers().length, { timeout: 15_000, interval: 100 }).toBe(0);
    const tab = await open();
    expect(browsers()).toHaveLength(1);
    expect(rig.registry.resolve(tab.id).title).toBe('home');
    await rig.registry.close(tab);
  });

  it('stops with the host', async () => {
    await open();
    expect(browsers()).toHaveLength(1);
    const stopping = rig;
    disposed = true;
    await stopping.dispose();
    expect(browsers()).toEqual([]);
  });
});
