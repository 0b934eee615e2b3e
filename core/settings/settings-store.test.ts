import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostOptions } from '../host-options.js';
import { SettingsStore } from './settings-store.js';

let home: string;
let settings: SettingsStore;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'vmark-settings-'));
  settings = new SettingsStore({ home } as HostOptions);
});
afterEach(() => rm(home, { recursive: true, force: true }));

const write = (value: unknown) => writeFile(path.join(home, 'settings.json'), JSON.stringify(value));

describe('SettingsStore', () => {
  it('falls back to the default when there is no settings file', () => {
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(false);
  });

  it('reads a dotted key, and sees a change at once', async () => {
    await write({ integrations: { autoApproveEdits: true } });
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(true);
    await write({ integrations: { autoApproveEdits: false } });
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(false);
  });

  it('ignores a value of the wrong type and a file that does not parse', async () => {
    await write({ integrations: { autoApproveEdits: 'yes' } });
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), false)).toBe(false);
    await writeFile(path.join(home, 'settings.json'), '{ not json');
    expect(settings.get('integrations.autoApproveEdits', z.boolean(), true)).toBe(true);
  });

  it('applies the schema, so partial objects get their defaults', async () => {
    await write({ cjkFormatting: { spaceCollapsing: false } });
    const schema = z.object({
      spaceCollapsing: z.boolean().default(true),
      quoteStyle: z.string().default('curly'),
    });
    expect(settings.get('cjkFormatting', schema, { spaceCollapsing: true, quoteStyle: 'curly' })).toEqual({
      spaceCollapsing: false,
      quoteStyle: 'curly',
    });
  });
});
