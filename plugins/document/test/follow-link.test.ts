import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DocumentStoreToken, VaultToken, WorkbenchToken, WorkspaceFilesToken } from '@vmark/sdk';
import { domainErrorOf, readManifest, startTestHost, type TestHost } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import documentPlugin from '../src/index.js';
import { type FollowServices, followLink } from '../src/links/follow-link.js';

const manifest = readManifest(new URL('../manifest.json', import.meta.url));

/* Following a link on a real host: the file it names, a heading's line, a note made, refusals. */

let workspace: string;
let test: TestHost;
let services: FollowServices;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-follow-link-')));
  await mkdir(path.join(workspace, 'notes'));
  await writeFile(path.join(workspace, 'notes', 'home.md'), '# Home\n\nSee [[beta]].\n');
  await writeFile(path.join(workspace, 'beta.md'), '# Beta\n\ntext\n\n## Part two\n');
  test = await startTestHost({
    plugins: [{ manifest, plugin: documentPlugin }],
    workspace,
    open: [path.join(workspace, 'notes', 'home.md')],
  });
  services = {
    workbench: test.host.container.get(WorkbenchToken),
    documents: test.host.container.get(DocumentStoreToken),
    vault: test.host.container.get(VaultToken),
    files: test.host.container.get(WorkspaceFilesToken),
  };
});
afterEach(async () => {
  await test.dispose();
  await rm(workspace, { recursive: true, force: true });
});

const home = () => test.host.workbench.state()[0]!.tabs.find((t) => t.title === 'home')!.id;
const follow = (form: 'wikilink' | 'markdown', target: string, heading: string | null = null) =>
  followLink(services, { tabId: home(), link: { form, target, heading } });
const files = async () => (await readdir(workspace, { recursive: true })).sort();

describe('following a link', () => {
  it('finds the file a wikilink or a Markdown link names, and the line of its heading', async () => {
    const beta = path.join(workspace, 'beta.md');
    expect(await follow('wikilink', 'Beta')).toEqual({ path: beta, line: null, created: false });
    expect(await follow('markdown', '../beta.md', 'Part two')).toEqual({
      path: beta,
      line: 5,
      created: false,
    });
    expect(await follow('wikilink', 'beta', 'no such')).toEqual({ path: beta, line: null, created: false });
    expect(await follow('wikilink', '', 'Home')).toEqual({ path: null, line: 1, created: false });
  });

  it('makes a missing note next to the linking one, empty, and opens it in a tab', async () => {
    const made = await follow('wikilink', 'Fresh idea');
    const file = path.join(workspace, 'notes', 'Fresh idea.md');
    expect(made).toEqual({ path: file, line: null, created: true });
    expect(await readFile(file, 'utf8')).toBe('');
    expect(test.host.workbench.state()[0]!.tabs.map((t) => t.filePath)).toContain(file);
  });

  it('refuses a link out of the workspace, an absolute one, a NUL, and makes nothing', async () => {
    const before = await files();
    for (const [form, target] of [
      ['markdown', '../../etc/passwd'],
      ['markdown', '/etc/passwd'],
      ['wikilink', '/etc/passwd'],
      ['markdown', 'a\0b'],
      ['wikilink', '../../../x'],
    ] as const) {
      const refused = await domainErrorOf(follow(form, target));
      expect(refused.code).toBe('INVALID_PATH');
      expect(refused.message).toContain('nothing was created');
    }
    expect(await files()).toEqual(before);
    expect(test.host.workbench.state()[0]!.tabs).toHaveLength(1);
  });

  it('refuses a request of the wrong shape', async () => {
    await expect(
      followLink(services, { tabId: home(), link: { form: 'script', target: 'x' } }),
    ).rejects.toThrow(/followLink takes/);
  });
});
