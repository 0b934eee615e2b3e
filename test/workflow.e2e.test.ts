import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, runCli, TempDirs } from './support/cli.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

const CI = [
  '# Continuous integration',
  'name: CI   # shown in the Actions tab',
  '',
  'on:',
  '  push:',
  '    branches: [ main ]   # flow style, padded',
  '',
  'jobs:',
  '  build:',
  '    runs-on: ubuntu-22.04 # pinned',
  '    steps:',
  '      - uses: actions/checkout@v4',
  "      - run: npm test # 'quoted' in a comment",
  '',
].join('\n');

const BROKEN = [
  'name: Broken',
  'on:',
  '  push:',
  '    branchs: [main]',
  'jobs:',
  '  test:',
  '    needs: [nope]',
  '    runs-on: ubuntu-22.04',
  '    timeout-minutes: abc',
  '    steps:',
  '      - run: echo ${{ matrix.nope }}',
  '',
].join('\n');

let workspace: string;
let home: string;
let workflow: string;
let notes: string;
let client: Client;

beforeEach(async () => {
  workspace = await realpath(await temp.make());
  home = await temp.make('vmark-home-');
  workflow = path.join(workspace, '.github', 'workflows', 'ci.yml');
  notes = path.join(workspace, 'notes.md');
  await mkdir(path.dirname(workflow), { recursive: true });
  await writeFile(workflow, CI);
  await writeFile(notes, '# Notes\n');
  ({ client } = await connectStdio(['--workspace', workspace, '--open', workflow, '--open', notes], home));
});
afterEach(() => client.close());

const wf = (args: Record<string, unknown>) => call(client, 'workflow', args);
const revision = async () =>
  (await call(client, 'document', { action: 'read', tabId: 'tab-1' })).data.revision as string;

describe('workflow.apply_patch', () => {
  it('is listed with the seed annotations and its two actions', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'workflow')!;
    expect(tool.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(tool.inputSchema.properties!.action).toMatchObject({ enum: ['apply_patch', 'validate'] });
  });

  it('changes only the edited line, keeps every comment, saves, and records the edit', async () => {
    const before = await revision();
    const result = await wf({
      action: 'apply_patch',
      tabId: 'tab-1',
      expected_revision: before,
      patches: [{ kind: 'job.set', jobId: 'build', path: 'runs-on', value: 'ubuntu-24.04' }],
    });
    expect(result.isError).toBe(false);
    expect(result.data).toMatchObject({ revision: expect.stringMatching(/^rev-/), saved: true });
    expect(result.data.revision).not.toBe(before);
    expect(await readFile(workflow, 'utf8')).toBe(
      CI.replace('ubuntu-22.04 # pinned', 'ubuntu-24.04 # pinned'),
    );
    await client.close();
    const history = JSON.parse(
      (await runCli(['checkpoints', 'list', '--json'], { VMARK_HOME: home })).stdout,
    ) as {
      tool: string;
      description: string;
    }[];
    expect(history[0]).toMatchObject({ tool: 'workflow.apply_patch', description: 'Set build.runs-on' });
  });

  it('returns the current revision, without a bump, for a batch that changes nothing', async () => {
    const before = await revision();
    const result = await wf({
      action: 'apply_patch',
      tabId: 'tab-1',
      patches: [{ kind: 'workflow.set', path: 'name', value: 'CI' }],
    });
    expect(result.data).toMatchObject({ revision: before });
    expect(await readFile(workflow, 'utf8')).toBe(CI);
  });

  it('says so when a patch addresses a job that does not exist, and changes nothing', async () => {
    const before = await revision();
    const result = await wf({
      action: 'apply_patch',
      tabId: 'tab-1',
      patches: [{ kind: 'job.set', jobId: 'deploy', path: 'runs-on', value: 'x' }],
    });
    expect(result.isError).toBe(false);
    expect(result.data).toMatchObject({ revision: before, warnings: [expect.stringContaining('deploy')] });
  });

  it('refuses a bad patch with INVALID_PATCH and its index, applying none of the batch', async () => {
    const result = await wf({
      action: 'apply_patch',
      tabId: 'tab-1',
      patches: [{ kind: 'workflow.set', path: 'name', value: 'Changed' }, { kind: 'bogus' }],
    });
    expect(result.data).toMatchObject({
      error: 'INVALID_PATCH',
      index: 1,
      message: expect.stringContaining('patches[1].kind'),
    });
    const internal = await wf({
      action: 'apply_patch',
      tabId: 'tab-1',
      patches: [{ kind: 'job.delete', jobId: 'build' }],
    });
    expect(internal.data).toMatchObject({ error: 'INVALID_PATCH', index: 0 });
    expect(await readFile(workflow, 'utf8')).toBe(CI);
  });

  it("refuses in the seed's order: patches, then the tab, then its kind, then the revision", async () => {
    expect((await wf({ action: 'apply_patch', tabId: 'tab-1' })).text).toContain(
      'patches (array) is required',
    );
    expect((await wf({ action: 'apply_patch', tabId: 'tab-9', patches: [] })).data).toMatchObject({
      error: 'INVALID_TAB',
    });
    expect((await wf({ action: 'apply_patch', tabId: 'tab-2', patches: [] })).data).toMatchObject({
      error: 'NOT_WORKFLOW',
    });
    const stale = await wf({
      action: 'apply_patch',
      tabId: 'tab-1',
      patches: [],
      expected_revision: 'rev-AAAAAAAA',
    });
    expect(stale.data).toMatchObject({ error: 'STALE', current_revision: await revision() });
  });
});

describe('workflow.validate', () => {
  it('reports nothing on a clean workflow', async () => {
    const result = await wf({ action: 'validate', tabId: 'tab-1' });
    expect(result.data).toMatchObject({ ok: true, diagnostics: [], binaryAvailable: true });
    expect(['native', 'wasm']).toContain(result.data.engine);
  });

  it('finds the errors of a broken workflow, with line and column', async () => {
    await call(client, 'document', { action: 'write', tabId: 'tab-1', content: BROKEN });
    const result = await wf({ action: 'validate', tabId: 'tab-1' });
    expect(result.data.ok).toBe(false);
    const diagnostics = result.data.diagnostics as {
      line: number;
      col: number;
      message: string;
      severity: string;
    }[];
    expect(diagnostics.map((d) => d.line)).toEqual(expect.arrayContaining([4, 6, 9, 11]));
    expect(diagnostics.every((d) => d.severity === 'error' && d.col > 0)).toBe(true);
  });

  it('reports YAML that does not parse at its line and column, never a crash of the linter', async () => {
    const unparsable =
      'name: CI\non: push\njobs:\n  build:\n    runs-on: [ubuntu-latest\n    steps:\n      - run: "\\q"\n';
    await call(client, 'document', { action: 'write', tabId: 'tab-1', content: unparsable });
    const result = await wf({ action: 'validate', tabId: 'tab-1' });
    expect(result.isError).toBe(false);
    expect(result.data).toMatchObject({ ok: false, binaryAvailable: true });
    expect(result.data.error).toBeUndefined();
    expect(result.text).not.toMatch(/unreachable|WebAssembly/);
    const diagnostics = result.data.diagnostics as { line: number; col: number; message: string }[];
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.every((d) => d.line >= 5 && d.col >= 1)).toBe(true);
    if (result.data.engine === 'wasm') {
      // The `yaml` parser's own errors: the unclosed flow sequence, then the bad escape.
      expect(diagnostics).toEqual([
        {
          line: 6,
          col: 5,
          message: expect.stringMatching(/^could not parse as YAML: Flow sequence in block collection/),
          severity: 'error',
          kind: 'syntax-check',
        },
        {
          line: 7,
          col: 15,
          message: 'could not parse as YAML: Invalid escape sequence \\q',
          severity: 'error',
          kind: 'syntax-check',
        },
      ]);
    }
  });

  it('answers as the original does when validation is turned off in settings', async () => {
    await writeFile(
      path.join(home, 'settings.json'),
      JSON.stringify({ advanced: { workflowActionlint: false } }),
    );
    expect((await wf({ action: 'validate', tabId: 'tab-1' })).data).toMatchObject({
      ok: true,
      diagnostics: [],
      binaryAvailable: false,
      error: 'actionlint disabled in settings',
    });
  });

  it('refuses a tab that is not a workflow', async () => {
    expect((await wf({ action: 'validate', tabId: 'tab-2' })).data).toMatchObject({ error: 'NOT_WORKFLOW' });
  });
});
