import { HOST_API_VERSION } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { validateManifest } from './validate-manifest.js';

/** The `contributes.panels` part of a manifest (ADR 20). */
const manifestWith = (panels: unknown) => ({
  id: 'notes',
  name: 'Notes',
  version: '1.0.0',
  engines: { host: '^1.0.0' },
  main: 'main.js',
  contributes: { panels },
});
const errors = (panels: unknown) =>
  validateManifest(manifestWith(panels), HOST_API_VERSION)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.message)
    .join('\n');

describe('contributes.panels', () => {
  it.each(['sidebar', 'bottom', 'right'])('accepts the %s slot, with or without a module', (slot) => {
    expect(errors([{ id: 'outline', title: 'Outline', slot }])).toBe('');
    expect(errors([{ id: 'outline', title: 'Outline', slot, module: 'ui/dist/outline.js' }])).toBe('');
  });

  it.each([
    ['../main.js'],
    ['ui/../main.js'],
    ['ui/./outline.js'],
    ['ui/.hidden.js'],
    ['/abs/ui/outline.js'],
    ['dist/outline.js'],
    ['ui/outline.ts'],
    ['ui\\outline.js'],
    ['ui//outline.js'],
  ])('refuses the module %s', (module) => {
    expect(errors([{ id: 'outline', title: 'Outline', slot: 'right', module }])).toMatch(
      /must name a \.js file inside the plugin's ui\/ folder/,
    );
  });

  it('refuses an unknown slot, a bad id, unknown fields and a panel contributed twice', () => {
    expect(errors([{ id: 'outline', title: 'Outline', slot: 'editor' }])).not.toBe('');
    expect(errors([{ id: 'Out line', title: 'Outline', slot: 'right' }])).not.toBe('');
    expect(errors([{ id: 'outline', title: 'Outline', slot: 'right', html: '<b>' }])).not.toBe('');
    expect(
      errors([
        { id: 'outline', title: 'One', slot: 'right' },
        { id: 'outline', title: 'Two', slot: 'bottom' },
      ]),
    ).toBe('panel "outline" is contributed twice');
  });
});
