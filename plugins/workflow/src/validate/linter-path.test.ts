import { describe, expect, it } from 'vitest';
import { UNTITLED_NAME, linterFileName, repositoryRootOf } from './linter-path.js';

describe('linterFileName', () => {
  it('names a saved document .github/workflows/<name>, whatever directory it is in', () => {
    expect(linterFileName('/home/u/repo/.github/workflows/ci.yml')).toBe('.github/workflows/ci.yml');
    expect(linterFileName('/tmp/release.yaml')).toBe('.github/workflows/release.yaml');
  });

  it('names an unsaved document untitled.yml', () => {
    expect(linterFileName(null)).toBe(UNTITLED_NAME);
    expect(linterFileName('')).toBe('untitled.yml');
  });
});

describe('repositoryRootOf', () => {
  it('is the directory holding .github/workflows/', () => {
    expect(repositoryRootOf('/home/u/repo/.github/workflows/ci.yml')).toBe('/home/u/repo');
    expect(repositoryRootOf('/.github/workflows/ci.yml')).toBe('/');
  });

  it('is null outside a workflows directory, for relative paths and for unsaved documents', () => {
    expect(repositoryRootOf('/home/u/repo/ci.yml')).toBeNull();
    expect(repositoryRootOf('/home/u/repo/.github/workflows/nested/ci.yml')).toBeNull();
    expect(repositoryRootOf('repo/.github/workflows/ci.yml')).toBeNull();
    expect(repositoryRootOf(null)).toBeNull();
  });
});
