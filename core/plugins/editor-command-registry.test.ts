import { ArgumentError } from '@vmark/sdk';
import { describe, expect, it } from 'vitest';
import { EditorCommandRegistry } from './editor-command-registry.js';

const call = { windowLabel: 'main', tabId: 'tab-1' };
const declaration = (id: string) => ({ id, title: `Title of ${id}` });

describe('EditorCommandRegistry', () => {
  it('runs a command with where it was run, and hands back a string it returns as the note', async () => {
    const registry = new EditorCommandRegistry();
    const seen: unknown[] = [];
    registry.add('notes', declaration('notes.stamp'), (c) => {
      seen.push(c);
      return 'Stamped';
    });
    registry.add('notes', declaration('notes.quiet'), () => undefined);
    expect(await registry.run('notes.stamp', call)).toBe('Stamped');
    expect(await registry.run('notes.quiet', call)).toBeUndefined();
    expect(seen).toEqual([call]);
    expect(registry.list().map((c) => c.declaration.id)).toEqual(['notes.stamp', 'notes.quiet']);
  });

  it('passes on what a handler throws, and refuses an id no running plugin handles', async () => {
    const registry = new EditorCommandRegistry();
    registry.add('notes', declaration('notes.fail'), () => Promise.reject(new Error('disk full')));
    await expect(registry.run('notes.fail', call)).rejects.toThrow('disk full');
    await expect(registry.run('notes.missing', call)).rejects.toThrow(ArgumentError);
  });

  it('refuses a second handler for one id, and the first stays', async () => {
    const registry = new EditorCommandRegistry();
    registry.add('notes', declaration('notes.stamp'), () => 'first');
    expect(() => registry.add('notes', declaration('notes.stamp'), () => 'second')).toThrow(
      'editor command "notes.stamp" already has a handler (plugin "notes")',
    );
    expect(await registry.run('notes.stamp', call)).toBe('first');
  });

  it('forgets a command when its registration is disposed, and says so each time', async () => {
    const registry = new EditorCommandRegistry();
    let changes = 0;
    registry.onDidChange(() => changes++);
    const registration = registry.add('notes', declaration('notes.stamp'), () => 'x');
    registration.dispose();
    registration.dispose();
    expect(changes).toBe(2);
    expect(registry.has('notes.stamp')).toBe(false);
    await expect(registry.run('notes.stamp', call)).rejects.toThrow('No running plugin');
  });
});
