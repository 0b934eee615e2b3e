import { defineTool } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { type ContributionKind, toolMismatch, undeclaredContribution } from './declared-contribution.js';
import type { PluginManifest } from './manifest.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const manifest: PluginManifest = {
  id: 'notes',
  name: 'Notes',
  version: '1.0.0',
  engines: { host: '^1.0.0' },
  main: 'main.js',
  contributes: {
    tools: [{ name: 'notes', title: 'Notes', annotations: READ_ONLY, actions: ['get', 'list'] }],
    commands: [{ name: 'notes', summary: 'List the notes' }],
    kinds: [{ id: 'note' }],
    panels: [{ id: 'outline', title: 'Outline', slot: 'right' }],
    extensionPoints: [{ id: 'noteSources' }],
  },
};
const bare: PluginManifest = { ...manifest, contributes: undefined };

const tool = (overrides: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({
    name: 'notes',
    title: 'Notes',
    description: 'Notes.',
    annotations: READ_ONLY,
    actions: {
      get: { args: {}, run: () => null },
      list: { args: {}, run: () => null },
    },
    ...overrides,
  });

describe('undeclaredContribution', () => {
  it.each<[ContributionKind, string, string]>([
    ['tool', 'notes', 'plugin "notes" tool "other" is not declared in the manifest\'s contributes.tools'],
    ['command', 'notes', 'plugin "notes" registers command "other" that its manifest does not declare'],
    ['kind', 'note', 'plugin "notes" registers document kind "other" that its manifest does not declare'],
    ['panel', 'outline', 'plugin "notes" registers panel "other" that its manifest does not declare'],
    [
      'extensionPoint',
      'noteSources',
      'plugin "notes" opens extension point "other" that its manifest does not declare',
    ],
  ])('passes a declared %s and refuses an undeclared one, saying which', (kind, declared, refusal) => {
    expect(undeclaredContribution(manifest, kind, declared)).toBeNull();
    expect(undeclaredContribution(manifest, kind, 'other')).toEqual({ severity: 'error', message: refusal });
    // A manifest that declares no contributions at all declares none of them.
    expect(undeclaredContribution(bare, kind, declared)?.severity).toBe('error');
  });

  it('looks only in the list of its own kind', () => {
    // "notes" is a declared tool and command, but no panel.
    expect(undeclaredContribution(manifest, 'panel', 'notes')?.severity).toBe('error');
  });
});

describe('toolMismatch', () => {
  it('passes a tool registered exactly as declared', () => {
    expect(toolMismatch(manifest, tool())).toBeNull();
  });

  it('says what differs, the first difference only', () => {
    expect(
      toolMismatch(manifest, tool({ title: 'Other', annotations: { ...READ_ONLY, readOnlyHint: false } })),
    ).toEqual({ severity: 'error', message: 'plugin "notes" tool "notes": title differs from the manifest' });
    expect(
      toolMismatch(manifest, tool({ annotations: { ...READ_ONLY, readOnlyHint: false } }))?.message,
    ).toBe('plugin "notes" tool "notes": readOnlyHint differs from the manifest');
    expect(toolMismatch(bare, tool())?.message).toBe(
      'plugin "notes" tool "notes" is not declared in the manifest\'s contributes.tools',
    );
  });
});
