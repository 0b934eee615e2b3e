import { describe, expect, it } from 'vitest';
import { ViewProviderRegistry } from './view-provider-registry.js';

describe('ViewProviderRegistry', () => {
  it("routes a request to its own plugin's provider for the kind, and to no other", async () => {
    const views = new ViewProviderRegistry();
    views.add('notes', { kind: 'note', actions: { echo: (params) => ({ notes: params }) } });
    views.add('other', { kind: 'note', actions: { echo: () => 'other' } });
    await expect(views.request('notes', 'note', 'echo', 1)).resolves.toEqual({ notes: 1 });
    await expect(views.request('notes', 'page', 'echo', 1)).rejects.toThrow(
      'Plugin "notes" has no active view provider for "page"',
    );
    await expect(views.request('notes', 'note', 'toString', 1)).rejects.toThrow(
      'The view of "notes/note" has no request "toString"',
    );
  });

  it('refuses a second provider for the same kind of one plugin', () => {
    const views = new ViewProviderRegistry();
    views.add('notes', { kind: 'note' });
    expect(() => views.add('notes', { kind: 'note' })).toThrow('twice');
  });

  it('pushes to a watch until its page stops it, then runs the cleanup once and tells no one', () => {
    const views = new ViewProviderRegistry();
    const stopped: string[] = [];
    let push: ((data: unknown) => void) | undefined;
    views.add('notes', {
      kind: 'note',
      watch: (topic, send) => {
        push = send;
        return () => stopped.push(topic);
      },
    });
    const got: unknown[] = [];
    const ended: string[] = [];
    const watch = views.watch(
      'notes',
      'note',
      'n-1',
      (data) => got.push(data),
      () => ended.push('n-1'),
    );
    push!(1);
    watch.dispose();
    watch.dispose();
    push!(2);
    expect(got).toEqual([1]);
    expect(stopped).toEqual(['n-1']);
    expect(ended).toEqual([]);
  });

  it('ends every watch of a provider when it goes (its plugin turned off), telling each page', () => {
    const views = new ViewProviderRegistry();
    const stopped: string[] = [];
    const registration = views.add('notes', { kind: 'note', watch: (topic) => () => stopped.push(topic) });
    const ended: string[] = [];
    views.watch(
      'notes',
      'note',
      'a',
      () => undefined,
      () => ended.push('a'),
    );
    views.watch(
      'notes',
      'note',
      'b',
      () => undefined,
      () => ended.push('b'),
    );
    registration.dispose();
    expect(stopped).toEqual(['a', 'b']);
    expect(ended).toEqual(['a', 'b']);
    expect(() =>
      views.watch(
        'notes',
        'note',
        'c',
        () => undefined,
        () => undefined,
      ),
    ).toThrow('no active view provider');
  });

  it('refuses a watch of a provider that watches nothing, and passes on what watch throws', () => {
    const views = new ViewProviderRegistry();
    views.add('notes', { kind: 'note' });
    views.add('pages', {
      kind: 'page',
      watch: () => {
        throw new Error('no such page');
      },
    });
    expect(() =>
      views.watch(
        'notes',
        'note',
        'a',
        () => undefined,
        () => undefined,
      ),
    ).toThrow('has nothing to watch');
    expect(() =>
      views.watch(
        'pages',
        'page',
        'a',
        () => undefined,
        () => undefined,
      ),
    ).toThrow('no such page');
  });
});
