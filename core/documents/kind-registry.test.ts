import { describe, expect, it } from 'vitest';
import { KindRegistry } from './kind-registry.js';

describe('KindRegistry.detect with the text given as a function', () => {
  const registry = new KindRegistry();
  const seen: string[] = [];
  registry.register({
    id: 'yaml-ish',
    priority: 10,
    detect: (filePath, content) => (seen.push(content), content.startsWith('on:')),
    readsContent: (filePath) => filePath === null || filePath.endsWith('.yml'),
  });
  registry.register({ id: 'note', priority: 0, detect: () => true, readsContent: () => false });

  it('builds the text only for a kind that reads it at this path, and once', () => {
    let built = 0;
    const text = (value: string) => () => (built++, value);
    seen.length = 0;
    expect(registry.detect('/w/a.md', text('on: push'))).toBe('note');
    expect([built, seen]).toEqual([0, ['']]);
    expect(registry.detect('/w/ci.yml', text('on: push'))).toBe('yaml-ish');
    expect(registry.detect(null, text('# title'))).toBe('note');
    expect([built, seen]).toEqual([2, ['', 'on: push', '# title']]);
  });

  it('answers as before for a text given as a string', () => {
    expect(registry.detect('/w/ci.yml', 'on: push')).toBe('yaml-ish');
    expect(registry.detect('/w/a.md', 'on: push')).toBe('note');
  });
});
