import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DomainError } from '@vmark/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KindRegistry } from '../../documents/kind-registry.js';
import { readTextFile } from '../../documents/read-text-file.js';
import type { UiPlugin } from '../../protocol/panel-protocol.js';
import { explainOpenFailure, UiRefusal } from './open-refusal.js';

let folder: string;
beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-open-refusal-'));
});
afterEach(() => fs.rm(folder, { recursive: true, force: true }));

function plugin(id: string, fields: Partial<UiPlugin>): UiPlugin {
  return {
    id,
    name: id.toUpperCase(),
    version: '1.0.0',
    source: 'builtin',
    enabled: true,
    active: true,
    diagnostics: [],
    tools: [],
    kinds: [],
    commands: [],
    panels: [],
    settings: [],
    dependents: [],
    ...fields,
  };
}

/** The error a real read or kind detection throws. */
async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('explainOpenFailure', () => {
  it('says a file is not text, and a picture by its name, keeping the seed’s code and message', async () => {
    for (const [name, picture] of [
      ['Pic.PNG', true],
      ['photo.jpeg', true],
      ['data.bin', false],
    ] as const) {
      const file = path.join(folder, name);
      await fs.writeFile(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]));
      const error = await thrown(() => readTextFile(file));
      // What MCP clients get stays the seed's envelope.
      expect((error as DomainError).toEnvelope()).toEqual({
        error: 'INVALID_PATH',
        message: `${JSON.stringify(file)} is not UTF-8 text`,
      });
      const explained = explainOpenFailure(error, file, []);
      expect(explained).toBeInstanceOf(UiRefusal);
      expect((explained as UiRefusal).refusal).toEqual({
        code: 'INVALID_PATH',
        message: `${JSON.stringify(file)} is not UTF-8 text`,
        reason: { kind: 'not-text', fileName: name, picture },
      });
    }
  });

  it('names the plugins with document kinds that do not run when no plugin opens a file', async () => {
    const error = await thrown(() => new KindRegistry().detect('/w/notes.md', 'text'));
    expect((error as DomainError).toEnvelope()).toEqual({
      error: 'INTERNAL',
      message: 'No enabled plugin handles this document kind',
    });
    const plugins = [
      plugin('document', { enabled: false, active: false, kinds: ['Markdown'] }),
      plugin('workflow', { enabled: true, active: false, kinds: ['GitHub Actions workflow'] }),
      plugin('running', { kinds: ['Notes'] }),
      plugin('no-kinds', { enabled: false, active: false }),
    ];
    expect((explainOpenFailure(error, '/w/notes.md', plugins) as UiRefusal).refusal.reason).toEqual({
      kind: 'no-plugin',
      fileName: 'notes.md',
      plugins: [
        { id: 'document', name: 'DOCUMENT', enabled: false, kinds: ['Markdown'] },
        { id: 'workflow', name: 'WORKFLOW', enabled: true, kinds: ['GitHub Actions workflow'] },
      ],
    });
  });

  it('leaves every other error as it was', () => {
    const other = new DomainError('INVALID_PATH', 'outside the workspace');
    expect(explainOpenFailure(other, '/x.md', [])).toBe(other);
    const plain = new Error('boom');
    expect(explainOpenFailure(plain, '/x.md', [])).toBe(plain);
  });
});
