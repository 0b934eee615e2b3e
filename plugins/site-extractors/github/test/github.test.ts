/**
 * The GitHub extractor on pages written for it (test/fixtures/): an issue and a pull request
 * with their conversation, a repository's README, a file, and the pages it leaves to the generic
 * reader (other kinds, and an issue URL that shows a sign-in wall).
 */
import { readFile } from 'node:fs/promises';
import { readPage } from '@vmark/sdk/reader';
import { describe, expect, it } from 'vitest';
import { githubExtractor, kindOf } from '../src/github-extractor.js';

const fixture = (name: string) => readFile(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const read = async (name: string, url: string) => githubExtractor.read(await fixture(name), new URL(url));

describe('match', () => {
  it.each([
    ['https://github.com/example-org/notes-app/issues/42', 'conversation'],
    ['https://github.com/example-org/notes-app/pull/57', 'conversation'],
    ['https://github.com/example-org/notes-app', 'repository'],
    ['https://github.com/example-org/notes-app/blob/main/src/fence.ts', 'file'],
    ['https://github.com/example-org/notes-app/pull/57/files', null],
    ['https://github.com/example-org/notes-app/actions', null],
    ['https://github.com/example-org/notes-app/issues', null],
    ['https://github.com/example-org', null],
    ['https://github.com/settings/profile', null],
    ['https://gist.github.com/ada/abc', null],
  ])('%s → %s', (url, kind) => {
    expect(kindOf(new URL(url))).toBe(kind);
    expect(githubExtractor.match(new URL(url))).toBe(kind !== null);
  });
});

describe('read', () => {
  it('reads an issue as its title, state and every comment with author and date', async () => {
    const result = await read('issue.html', 'https://github.com/example-org/notes-app/issues/42');
    await expect(result.markdown).toMatchFileSnapshot('golden/issue.md');
    expect(result).toMatchObject({ title: 'Reader mode drops code fences', byline: 'ada' });
    expect(result.markdown).toContain('## ada commented 2026-03-02T09:15:00Z');
    expect(result.markdown).toContain('## grace commented 2026-03-03T17:40:00Z');
    expect(result.markdown).not.toMatch(/Pricing|Assignees|Terms/);
  });

  it('reads a pull request conversation, reviews included, and not the timeline events', async () => {
    const result = await read('pull-request.html', 'https://github.com/example-org/notes-app/pull/57');
    await expect(result.markdown).toMatchFileSnapshot('golden/pull-request.md');
    expect(result.markdown.match(/^## /gm)).toHaveLength(3);
    expect(result.markdown).toContain('State: Merged');
    expect(result.markdown).not.toContain('added 3 commits');
  });

  it('reads a repository page as its README, with absolute image and link URLs', async () => {
    const result = await read('repository.html', 'https://github.com/example-org/notes-app');
    await expect(result.markdown).toMatchFileSnapshot('golden/repository.md');
    expect(result.markdown).toContain(
      '(https://github.com/example-org/notes-app/raw/main/docs/screenshot.png)',
    );
    expect(result.markdown).not.toContain('package.json');
  });

  it("reads a file as a fence in its language, longer than any backtick run in it, with the code's text intact", async () => {
    const result = await read('file.html', 'https://github.com/example-org/notes-app/blob/main/src/fence.ts');
    await expect(result.markdown).toMatchFileSnapshot('golden/file.md');
    expect(result.markdown).toMatch(/^````typescript$/m);
    expect(result.markdown).toContain('// A comment with ``` inside, and <tags> that must stay text.');
    expect(result.markdown).not.toContain('Copy raw file');
  });

  it('answers with the generic reader when an issue URL shows something else (a sign-in wall)', async () => {
    const url = 'https://github.com/example-org/private/issues/1';
    const html = await fixture('sign-in-wall.html');
    const result = await githubExtractor.read(html, new URL(url));
    expect(result).toEqual(await readPage(html, url));
    expect(result.markdown).toContain('You must be signed in');
  });
});
