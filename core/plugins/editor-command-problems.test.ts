import { describe, expect, it } from 'vitest';
import { HOST_API_VERSION } from '@vmark/sdk';
import { editorCommandProblems } from './editor-command-problems.js';
import { validateManifest } from './validate-manifest.js';

const command = (id: string, extra: Record<string, string> = {}) => ({ id, title: 'A title', ...extra });

describe('editor command contributions', () => {
  it('accepts well-formed commands', () => {
    expect(
      editorCommandProblems('outline', [
        command('outline.toggle', { key: 'Mod+Shift+O', when: 'activeKind == markdown' }),
        command('outline.reveal', { key: 'Ctrl+Alt+R', mac: 'Cmd+Alt+R', category: 'Outline' }),
      ]),
    ).toEqual([]);
  });

  it('refuses an id outside the plugin’s namespace, or a repeated one', () => {
    expect(editorCommandProblems('outline', [command('files.toggle')])).toEqual([
      expect.stringContaining('must be named "outline.<name>"'),
    ]);
    expect(editorCommandProblems('outline', [command('outline.')])).toHaveLength(1);
    expect(editorCommandProblems('outline', [command('outline.a'), command('outline.a')])).toEqual([
      'editor command "outline.a" is contributed twice',
    ]);
  });

  it('refuses an empty title, a bad key, a bad when', () => {
    expect(editorCommandProblems('p', [{ id: 'p.a', title: '  ' }])).toEqual([
      'editor command "p.a" has an empty title',
    ]);
    expect(editorCommandProblems('p', [command('p.a', { key: 'Hyper+K' })])).toEqual([
      expect.stringContaining('"Hyper" in "Hyper+K" is not a modifier'),
    ]);
    expect(editorCommandProblems('p', [command('p.a', { mac: 'Cmd+Shift' })])).toEqual([
      expect.stringContaining('no key besides its modifiers'),
    ]);
    expect(editorCommandProblems('p', [command('p.a', { when: 'sidebarOpen' })])).toEqual([
      expect.stringContaining('names no context key'),
    ]);
  });

  it('refuses one default key for two of the plugin’s commands, per platform', () => {
    expect(
      editorCommandProblems('p', [command('p.a', { key: 'Mod+K' }), command('p.b', { key: 'Ctrl+K' })]),
    ).toEqual(['editor commands "p.a" and "p.b" both take Ctrl+K']);
    expect(
      editorCommandProblems('p', [command('p.a', { key: 'Mod+K' }), command('p.b', { key: 'Meta+K' })]),
    ).toEqual(['editor commands "p.a" and "p.b" both take Meta+K']);
  });

  it('is part of the manifest check, which names the field of a wrong shape', () => {
    const manifest = (editorCommands: unknown) => ({
      id: 'p',
      name: 'P',
      version: '1.0.0',
      engines: { host: `^${HOST_API_VERSION}` },
      main: 'dist/index.js',
      contributes: { editorCommands },
    });
    const messages = (raw: unknown) =>
      validateManifest(raw, HOST_API_VERSION).diagnostics.map((d) => d.message);
    expect(messages(manifest([command('p.a', { key: 'Mod+K' })]))).toEqual([]);
    expect(messages(manifest([command('q.a')]))).toEqual([expect.stringContaining('"p.<name>"')]);
    expect(messages(manifest([{ id: 'p.a' }]))).toEqual([
      expect.stringContaining('contributes.editorCommands.0.title'),
    ]);
  });
});
