import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock, WorkspaceLedger } from './workspace-ledger.js';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-ledger-'));
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('WorkspaceLedger.initialized', () => {
  it('is false without a .vmark folder and true once there is one, asked again each time', async () => {
    const ledger = new WorkspaceLedger(root, 'writer-1', systemClock);
    expect(await ledger.initialized()).toBe(false);
    await fs.mkdir(path.join(root, '.vmark'));
    expect(await ledger.initialized()).toBe(true);
    await fs.rm(path.join(root, '.vmark'), { recursive: true });
    expect(await ledger.initialized()).toBe(false);
  });

  it('is false when the root itself is gone or is a file', async () => {
    const file = path.join(root, 'note.md');
    await fs.writeFile(file, 'x');
    expect(await new WorkspaceLedger(file, 'writer-1', systemClock).initialized()).toBe(false);
    expect(await new WorkspaceLedger(path.join(root, 'gone'), 'writer-1', systemClock).initialized()).toBe(
      false,
    );
  });
});
