import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Progress, ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCall } from '@vmark/sdk';
import { defineAction, defineTool, DocumentStoreToken, requiredString, WorkbenchToken, z } from '@vmark/sdk';
import { type PluginUnderTest, startTestHost, type TestHost, toolPlugin } from '@vmark/sdk/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createHostHooks } from '../hooks/host-hooks.js';
import { CallProgress } from './call-progress.js';
import { CallScope, runInCall } from './call-scope.js';
import { LARGE_WRITE_BYTES, reportLargeWrites } from './write-progress.js';

/*
 * A large write through the host's document store, from a tool call: its stages reach the
 * calling client as progress when it passed a token, whichever tool wrote.
 */

let kit: TestHost | undefined;
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'vmark-write-progress-')));
  file = path.join(dir, 'big.md');
  await writeFile(file, 'small\n');
});
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** The plugin also declares the one document kind the host needs to open a file. */
function withKind(plugin: PluginUnderTest): PluginUnderTest {
  const manifest = plugin.manifest as { contributes: Record<string, unknown> };
  return {
    ...plugin,
    manifest: {
      ...manifest,
      contributes: { ...manifest.contributes, kinds: [{ id: 'text', title: 'Text' }] },
    },
  };
}

async function start(): Promise<TestHost> {
  let write: (content: string, save: boolean, call: ToolCall) => Promise<unknown> = () => Promise.resolve();
  const tool = defineTool({
    name: 'writer',
    title: 'Writer',
    description: 'Writes the focused document through the host’s store',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    actions: {
      write: defineAction({
        args: { content: requiredString('content'), save: z.boolean() },
        run: ({ content, save }, call) => write(content, save, call),
      }),
    },
  });
  kit = await startTestHost({
    workspace: dir,
    open: [file],
    plugins: [
      withKind(
        toolPlugin('writer', [tool], (context) => {
          context.registerKind({ id: 'text', priority: 0, detect: () => true });
          const documents = context.get(DocumentStoreToken);
          const workbench = context.get(WorkbenchToken);
          write = (content, save, call) =>
            documents.write(workbench.resolveTab().documentId, content, {
              origin: { kind: 'mcp', caller: call.caller, tool: call.tool, action: call.action },
              save,
            });
        }),
      ),
    ],
  });
  return kit;
}

it('reports a large write’s stages to a client that passed a token, and saves it', async () => {
  const { client } = await start();
  const content = 'x'.repeat(5 * 1024 * 1024);
  const reports: Progress[] = [];
  const result = await client.callTool(
    { name: 'writer', arguments: { action: 'write', content, save: true } },
    undefined,
    { onprogress: (p) => reports.push(p) },
  );
  expect(result.isError).toBeFalsy();
  expect(await readFile(file, 'utf8')).toBe(content);
  // The first stage goes at once; the later ones only if the write takes longer than 100 ms.
  expect(reports[0]).toEqual({ progress: 1, total: 3, message: 'staging 5.0 MiB' });
  for (const report of reports.slice(1))
    expect(report.message).toMatch(/^(saving 5\.0 MiB to disk|saved 5\.0 MiB)$/);
});

it('reports nothing for a small write, nor for a large one without a token', async () => {
  const { client } = await start();
  const unasked: unknown[] = [];
  client.setNotificationHandler(ProgressNotificationSchema, (n) => void unasked.push(n));
  await client.callTool(
    {
      name: 'writer',
      arguments: { action: 'write', content: 'y'.repeat(LARGE_WRITE_BYTES - 1), save: true },
    },
    undefined,
    // A token, through the SDK's own routing (replaced above): anything sent would land in `unasked`.
    { onprogress: () => undefined },
  );
  await client.callTool({
    name: 'writer',
    arguments: { action: 'write', content: 'z'.repeat(3_000_000), save: false },
  });
  expect(unasked).toEqual([]);
  expect(await readFile(file, 'utf8')).toBe('y'.repeat(LARGE_WRITE_BYTES - 1));
});

it('reports nothing for a large write made outside a tool call (the editor)', async () => {
  const { client, editor } = await start();
  const unasked: unknown[] = [];
  client.setNotificationHandler(ProgressNotificationSchema, (n) => void unasked.push(n));
  const tabId = kit!.host.workbench.resolveTab().id;
  await editor.type(tabId, 'e'.repeat(2_000_000));
  await editor.save(tabId);
  await client.callTool({ name: 'writer', arguments: { action: 'write', content: 'sync', save: false } });
  expect(unasked).toEqual([]);
});

it('measures a write’s text only for a call that passed a token (none is read before the editors hear of it)', async () => {
  const hooks = createHostHooks();
  const taps = reportLargeWrites(hooks);
  const content = 'w'.repeat(LARGE_WRITE_BYTES);
  let reads = 0;
  const proposal = () => {
    const document = {
      id: 'doc-1',
      filePath: file,
      content: '',
      revision: 'rev-aaaaaaaa',
      kind: 'text',
      dirty: false,
    };
    return {
      document,
      get content() {
        reads++;
        return content;
      },
      origin: { kind: 'editor' as const },
    };
  };
  const sent: unknown[] = [];
  const stages = (token: string | undefined) =>
    runInCall(
      new CallScope(
        'connection-1',
        1,
        new CallProgress(token, (params) => {
          sent.push(params);
          return Promise.resolve();
        }),
      ),
      async () => {
        await hooks.beforeDocumentWrite.promise(proposal());
        await hooks.beforeDocumentSave.promise(proposal());
      },
    );
  await stages(undefined);
  expect(reads).toBe(0);
  expect(sent).toEqual([]);
  await stages('tok');
  expect(reads).toBe(2);
  expect(sent).toHaveLength(1);
  taps.dispose();
});
