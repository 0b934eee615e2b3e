import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let workspace: string;
let home: string;
let file: string;
let client: Client;

beforeEach(async () => {
  workspace = await realpath(await temp.make());
  home = await temp.make('vmark-home-');
  file = path.join(workspace, 'note.md');
});
afterEach(() => client?.close());

async function open(content: string) {
  await writeFile(file, content);
  ({ client } = await connectStdio(['--workspace', workspace, '--open', file], home));
}
const doc = (args: Record<string, unknown>) => call(client, 'document', args);

describe('document.transform', () => {
  it('formats the worked example of the original guide exactly, and saves it', async () => {
    await open('最近我在学习TypeScript和React,感觉收获很大.\n');
    const result = await doc({ action: 'transform', kind: 'cjk-format' });
    expect(result.isError).toBe(false);
    expect(result.data).toMatchObject({ revision: expect.stringMatching(/^rev-/), saved: true });
    expect((await doc({ action: 'read' })).data).toMatchObject({
      content: '最近我在学习 TypeScript 和 React，感觉收获很大。\n',
    });
    expect(await readFile(file, 'utf8')).toBe('最近我在学习 TypeScript 和 React，感觉收获很大。\n');
  });

  it('cjk-spacing and cjk-punctuation do only their own part, and leave code alone', async () => {
    await open('中文English混排,好的. `代码a,b` [链接](https://例子.com/a,b)\n');
    await doc({ action: 'transform', kind: 'cjk-spacing' });
    expect((await doc({ action: 'read' })).data).toMatchObject({
      content: '中文 English 混排,好的. `代码a,b` [链接](https://例子.com/a,b)\n',
    });
    await doc({ action: 'transform', kind: 'cjk-punctuation' });
    expect((await doc({ action: 'read' })).data).toMatchObject({
      content: '中文 English 混排，好的。 `代码a,b` [链接](https://例子.com/a,b)\n',
    });
  });

  it('returns the current revision, without a bump, when nothing changes', async () => {
    await open('Plain English only.\n');
    const before = (await doc({ action: 'read' })).data.revision;
    expect((await doc({ action: 'transform', kind: 'cjk-format' })).data).toMatchObject({ revision: before });
  });

  it('refuses a stale expected_revision and an unknown kind, changing nothing', async () => {
    await open('中文English\n');
    const stale = await doc({ action: 'transform', kind: 'cjk-spacing', expected_revision: 'rev-AAAAAAAA' });
    expect(stale.data).toMatchObject({ error: 'STALE' });
    // The original answers an unknown kind with the INTERNAL envelope, not a plain schema error (vmark-notes §2.3).
    const envelope = {
      error: 'INTERNAL',
      message: 'kind must be one of: cjk-format, cjk-spacing, cjk-punctuation',
    };
    const unknown = await doc({ action: 'transform', kind: 'cjk-everything' });
    expect(unknown).toEqual({ isError: true, text: JSON.stringify(envelope), data: envelope });
    // A missing or non-string kind is an argument mistake, a plain string.
    expect(await doc({ action: 'transform' })).toMatchObject({
      isError: true,
      text: 'kind (string) is required',
    });
    expect(await doc({ action: 'transform', kind: 7 })).toMatchObject({ text: 'kind (string) is required' });
    expect(await readFile(file, 'utf8')).toBe('中文English\n');
  });

  it('lists the transform kinds as an enum in the JSON Schema the client sees', async () => {
    await open('中文\n');
    const tool = (await client.listTools()).tools.find((t) => t.name === 'document')!;
    expect(tool.inputSchema.properties!.kind).toEqual({
      type: 'string',
      enum: ['cjk-format', 'cjk-spacing', 'cjk-punctuation'],
    });
  });

  it("follows the person's CJK formatting settings", async () => {
    await writeFile(
      path.join(home, 'settings.json'),
      JSON.stringify({ cjkFormatting: { cjkEnglishSpacing: false } }),
    );
    await open('学习TypeScript,很好.\n');
    await doc({ action: 'transform', kind: 'cjk-format' });
    expect((await doc({ action: 'read' })).data).toMatchObject({ content: '学习TypeScript，很好。\n' });
  });

  it('records each transform in the AI edit history, and restore brings the text back as a new revision', async () => {
    await open('中文English\n');
    await doc({ action: 'transform', kind: 'cjk-spacing' });
    await client.close();
    const list = JSON.parse(
      (await runCli(['checkpoints', 'list', '--json'], { VMARK_HOME: home })).stdout,
    ) as {
      id: string;
      tool: string;
      description: string;
      filePath: string;
    }[];
    expect(list[0]).toMatchObject({
      tool: 'document.transform',
      description: 'Applied cjk-spacing',
      filePath: file,
    });
    const restored = await runCli(['checkpoints', 'restore', list[0]!.id], { VMARK_HOME: home });
    expect(restored.code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('中文English\n');
  });
});

describe('document.read and document.write on a workflow file', () => {
  it('reads and writes the YAML as it is, comments included', async () => {
    const workflow = path.join(workspace, '.github', 'workflows', 'ci.yml');
    await mkdir(path.dirname(workflow), { recursive: true });
    const yaml = '# CI\nname: CI # the name\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n';
    await writeFile(workflow, yaml);
    ({ client } = await connectStdio(['--workspace', workspace, '--open', workflow], home));
    const read = await doc({ action: 'read' });
    expect(read.data).toMatchObject({ content: yaml, kind: 'yaml-workflow' });
    const changed = yaml.replace('name: CI', 'name: Build');
    expect(
      (await doc({ action: 'write', content: changed, expected_revision: read.data.revision })).data,
    ).toMatchObject({
      saved: true,
    });
    expect(await readFile(workflow, 'utf8')).toBe(changed);
  });
});
