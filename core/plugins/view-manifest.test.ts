import { HOST_API_VERSION } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { validateManifest } from './validate-manifest.js';

/** The `contributes.views` part of a manifest (ADR 35), beside the kinds it declares. */
const manifestWith = (views: unknown, kinds: unknown = [{ id: 'notes', title: 'Notes' }]) => ({
  id: 'notes',
  name: 'Notes',
  version: '1.0.0',
  engines: { host: '^1.0.0' },
  main: 'main.js',
  contributes: { kinds, views },
});
const errors = (views: unknown, kinds?: unknown) =>
  validateManifest(manifestWith(views, kinds), HOST_API_VERSION)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.message)
    .join('\n');

describe('contributes.views', () => {
  it('accepts a view of a kind the plugin declares', () => {
    expect(errors([{ kind: 'notes', module: 'ui/dist/notes-view.js' }])).toBe('');
  });

  it("refuses a view of a kind the plugin does not declare (another plugin's, or none)", () => {
    expect(errors([{ kind: 'markdown', module: 'ui/dist/md.js' }])).toBe(
      'view of kind "markdown": the plugin does not declare that kind in contributes.kinds',
    );
    expect(errors([{ kind: 'notes', module: 'ui/dist/notes.js' }], [])).toMatch(/does not declare/);
  });

  it('refuses two views of one kind', () => {
    expect(
      errors([
        { kind: 'notes', module: 'ui/dist/a.js' },
        { kind: 'notes', module: 'ui/dist/b.js' },
      ]),
    ).toBe('kind "notes" has more than one view');
  });

  it.each([['../main.js'], ['ui/../main.js'], ['/abs/ui/v.js'], ['ui/v.ts'], ['dist/v.js']])(
    'refuses the module %s',
    (module) => {
      expect(errors([{ kind: 'notes', module }])).toMatch(
        /must name a \.js file inside the plugin's ui\/ folder/,
      );
    },
  );

  it('refuses a view without a module, a bad kind id and unknown fields', () => {
    expect(errors([{ kind: 'notes' }])).not.toBe('');
    expect(errors([{ kind: 'No tes', module: 'ui/v.js' }])).not.toBe('');
    expect(errors([{ kind: 'notes', module: 'ui/v.js', html: '<b>' }])).not.toBe('');
  });
});
