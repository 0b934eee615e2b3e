import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chromiumArguments, findWindowProgram } from './app-window.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vmark-window-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function program(name: string, mode = 0o755): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, mode);
  return file;
}

describe('findWindowProgram', () => {
  it('takes the Chromium VMARK_CHROMIUM names', async () => {
    const chromium = await program('my-chromium');
    expect(await findWindowProgram({ env: { VMARK_CHROMIUM: chromium }, electron: false })).toEqual({
      kind: 'chromium',
      command: chromium,
    });
  });

  it('refuses a VMARK_CHROMIUM that is missing, a folder, or not executable, instead of looking elsewhere', async () => {
    const plain = await program('not-executable', 0o644);
    await mkdir(path.join(dir, 'folder'));
    for (const bad of [path.join(dir, 'missing'), path.join(dir, 'folder'), plain]) {
      await expect(findWindowProgram({ env: { VMARK_CHROMIUM: bad }, electron: false })).rejects.toThrow(
        `VMARK_CHROMIUM names ${bad}, which is not an executable file`,
      );
    }
  });

  it('refuses a VMARK_ELECTRON that is not a program', async () => {
    await expect(findWindowProgram({ env: { VMARK_ELECTRON: path.join(dir, 'missing') } })).rejects.toThrow(
      /VMARK_ELECTRON names .*missing, which is not an executable file/,
    );
  });

  it('looks for chromium and google-chrome on PATH, ignoring relative entries', async () => {
    const bin = path.join(dir, 'bin');
    await mkdir(bin);
    await writeFile(path.join(bin, 'google-chrome'), '#!/bin/sh\n', { mode: 0o755 });
    const found = await findWindowProgram({
      env: { PATH: `relative/bin${path.delimiter}${bin}` },
      electron: false,
    });
    // /usr/bin/chromium comes first where it is installed.
    expect([path.join(bin, 'google-chrome'), '/usr/bin/chromium']).toContain(found.command);
  });
});

describe('chromiumArguments', () => {
  const window = { openerUrl: 'file:///home/a/open-1.html', profileDir: '/home/a/app-chromium' };

  it('opens the private page as an app window with a profile of its own', () => {
    expect(chromiumArguments({ ...window, asRoot: false })).toEqual([
      '--app=file:///home/a/open-1.html',
      '--user-data-dir=/home/a/app-chromium',
      '--no-first-run',
      '--no-default-browser-check',
    ]);
  });

  it('turns the sandbox off only as root, where Chromium refuses to start with it', () => {
    expect(chromiumArguments({ ...window, asRoot: true })).toContain('--no-sandbox');
    expect(chromiumArguments({ ...window, asRoot: false })).not.toContain('--no-sandbox');
  });
});
