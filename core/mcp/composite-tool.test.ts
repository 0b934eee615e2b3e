import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCalledEvent, ToolDefinition } from '@vmark/sdk';
import {
  ContentResult,
  defineAction,
  defineTool,
  DomainError,
  optionalId,
  requiredString,
  staleError,
  z,
} from '@vmark/sdk';
import { startTestHost, type TestHost, toolPlugin } from '@vmark/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * A composite tool as an MCP client sees it: one tool per feature, multiplexed
 * by a required `action`; results as pretty JSON bounded to 75 000 bytes; domain
 * errors as the seed's envelope; tools that come and go with their plugin.
 */

const BOUND = 75_000;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

const big = (size: number) => ({ content: 'x'.repeat(size) });

const docs = defineTool({
  name: 'docs',
  title: 'Test Documents',
  description: 'A tool used by the composite-tool tests',
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  truncationRecovery: 'ask docs.read for a range',
  actions: {
    read: defineAction({
      args: { tabId: optionalId('tabId', 'tab') },
      truncationRecovery: 'use docs.read_range with a smaller range',
      run: () => big(200_000),
    }),
    dump: defineAction({ args: {}, run: () => big(200_000) }),
    write: defineAction({
      args: { content: requiredString('content'), tabId: optionalId('tabId', 'tab') },
      run: ({ content }) => ({ written: content.length }),
    }),
    missing: defineAction({
      args: { tabId: optionalId('tabId', 'tab') },
      run: ({ tabId }) => {
        throw new DomainError('INVALID_TAB', `No tab ${tabId ?? '(focused)'}`, { tabId: tabId ?? null });
      },
    }),
    stale: defineAction({
      args: {},
      run: () => {
        throw staleError('rev-abcDEF12');
      },
    }),
    crash: defineAction({
      args: {},
      run: () => {
        throw new Error('disk on fire');
      },
    }),
    throwString: defineAction({
      args: {},
      run: () => {
        // Plugins can throw anything; the host must still answer with an envelope.
        throw 'not an Error object' as unknown as Error;
      },
    }),
    nothing: defineAction({ args: {}, run: () => undefined }),
    sized: defineAction({ args: { size: z.number().int() }, run: ({ size }) => big(size) }),
    caller: defineAction({
      args: {},
      run: (_args, call) => ({ tool: call.tool, action: call.action, caller: call.caller }),
    }),
    picture: defineAction({
      args: { size: z.number().int() },
      run: ({ size }) =>
        new ContentResult([
          { type: 'text', text: 'A picture' },
          { type: 'image', data: 'A'.repeat(size), mimeType: 'image/jpeg' },
        ]),
    }),
  },
});

const plain = defineTool({
  name: 'plain',
  title: 'Plain Tool',
  description: 'Reads only, with the default recovery hint',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  actions: { dump: defineAction({ args: {}, run: () => big(100_000) }) },
});

const shaped = defineTool({
  name: 'shaped',
  title: 'Shaped Tool',
  description: 'Declares an output schema',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  outputSchema: { content: z.string(), revision: z.string() },
  actions: {
    object: defineAction({ args: {}, run: () => ({ content: 'hi', revision: 'rev-AAAAAAAA' }) }),
    list: defineAction({ args: {}, run: () => ['a', 'b'] }),
    huge: defineAction({ args: {}, run: () => ({ content: 'y'.repeat(100_000), revision: 'rev-AAAAAAAA' }) }),
    stale: defineAction({
      args: {},
      run: () => {
        throw staleError('rev-ZZZZzzzz');
      },
    }),
  },
});

let calls: ToolCalledEvent[] = [];

let kit: TestHost | undefined;

async function start(more: readonly ToolDefinition[] = []): Promise<TestHost> {
  calls = [];
  kit = await startTestHost({
    plugins: [
      toolPlugin('docs-plugin', [docs], (ctx) => ctx.hooks.tap('toolCalled', (event) => calls.push(event))),
      toolPlugin('other-plugin', [plain, shaped, ...more]),
    ],
  });
  return kit;
}

/** Calls a tool of the running kit. */
function call(tool: string, args: Record<string, unknown>) {
  if (!kit) throw new Error('start() the kit first');
  return kit.call(tool, args);
}

afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

describe('composite tools over MCP', () => {
  describe('tools/list', () => {
    it('lists each tool with its title and all four annotations', async () => {
      const { client } = await start();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['docs', 'plain', 'shaped']);
      const listed = tools.find((t) => t.name === 'docs')!;
      expect(listed.title).toBe('Test Documents');
      expect(listed.description).toBe('A tool used by the composite-tool tests');
      expect(listed.annotations).toEqual({
        title: 'Test Documents',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
    });

    it('requires `action`, as an enum of the tool\u2019s actions, and lists every other argument as optional', async () => {
      const { client } = await start();
      const { tools } = await client.listTools();
      const schema = tools.find((t) => t.name === 'docs')!.inputSchema;
      expect(schema.required).toEqual(['action']);
      expect(schema.properties?.action).toMatchObject({ type: 'string', enum: docs.actionNames });
      expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['action', 'content', 'size', 'tabId']);
      expect(schema.properties?.tabId).toMatchObject({ type: 'string', minLength: 1 });
      expect(schema.additionalProperties).toBe(false);
    });

    it('lists the tool\u2019s requiredArgs as required, and validates them before any action runs', async () => {
      const rooted = defineTool({
        name: 'rooted',
        title: 'Rooted',
        description: 'Every action needs a root',
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
        requiredArgs: ['root'],
        actions: {
          a: defineAction({ args: { root: requiredString('root') }, run: ({ root }) => root }),
          b: defineAction({ args: { root: requiredString('root'), n: z.number().optional() }, run: () => 1 }),
        },
      });
      const { client } = await start([rooted]);
      const schema = (await client.listTools()).tools.find((t) => t.name === 'rooted')!.inputSchema;
      expect(schema.required).toEqual(['action', 'root']);
      const missing = await client.callTool({ name: 'rooted', arguments: { action: 'a' } });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toContain('root (string) is required');
    });

    it('refuses requiredArgs that some action does not require', () => {
      const make = (args: Record<string, z.ZodType>) =>
        defineTool({
          name: 'broken',
          title: 'Broken',
          description: 'x',
          annotations: {
            readOnlyHint: true,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: false,
          },
          requiredArgs: ['root'],
          actions: { a: defineAction({ args, run: () => null }) },
        });
      expect(() => make({})).toThrow(
        /required argument "root" must be declared, not optional, by action "a"/,
      );
      expect(() => make({ root: z.string().optional() })).toThrow(/not optional/);
    });

    it('gives an output schema, all optional and admitting the truncation envelope, only to tools that declare one', async () => {
      const { client } = await start();
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'docs')!.outputSchema).toBeUndefined();
      const output = tools.find((t) => t.name === 'shaped')!.outputSchema!;
      expect(Object.keys(output.properties ?? {}).sort()).toEqual(
        [
          'bytes_shown',
          'bytes_total',
          'content',
          'preview',
          'revision',
          'truncated',
          'truncation_note',
        ].sort(),
      );
      expect(output.required ?? []).toEqual([]);
    });
  });

  describe('results', () => {
    it('answers with the result as pretty JSON text', async () => {
      await start();
      const out = await call('docs', { action: 'write', content: 'hello' });
      expect(out).toMatchObject({
        isError: false,
        text: JSON.stringify({ written: 5 }, null, 2),
        structured: undefined,
      });
    });

    it('answers `null` for an action that returns nothing', async () => {
      await start();
      expect(await call('docs', { action: 'nothing' })).toMatchObject({ isError: false, text: 'null' });
    });

    it('tells the action who is calling: the tool, the action and the MCP client', async () => {
      await start();
      const out = await call('docs', { action: 'caller' });
      expect(out.data).toMatchObject({
        tool: 'docs',
        action: 'caller',
        caller: { clientName: 'vmark-test-kit', clientVersion: '1.0.0' },
      });
      expect((out.data as { caller: { connectionId: string } }).caller.connectionId).toMatch(/\S/);
    });

    it('gives structuredContent to a tool with an output schema: the object itself, or {result} for anything else', async () => {
      await start();
      expect((await call('shaped', { action: 'object' })).structured).toEqual({
        content: 'hi',
        revision: 'rev-AAAAAAAA',
      });
      expect((await call('shaped', { action: 'list' })).structured).toEqual({ result: ['a', 'b'] });
    });
  });

  describe('content results', () => {
    it('passes text and image blocks to the client as they are', async () => {
      await start();
      const result = await kit!.client.callTool({
        name: 'docs',
        arguments: { action: 'picture', size: 1000 },
      });
      expect(result.isError).toBeUndefined();
      expect(result.content).toEqual([
        { type: 'text', text: 'A picture' },
        { type: 'image', data: 'A'.repeat(1000), mimeType: 'image/jpeg' },
      ]);
      expect(result.structuredContent).toBeUndefined();
    });

    it('refuses one over the output bound whole, since an image cannot be cut', async () => {
      await start();
      const out = await call('docs', { action: 'picture', size: BOUND });
      expect(out.isError).toBe(true);
      expect(out.text).toMatch(/^OUTPUT_TOO_LARGE: the result is \d+ bytes, over the 75000-byte bound/);
      expect(out.structured).toMatchObject({ error: 'OUTPUT_TOO_LARGE' });
      expect(calls.at(-1)).toMatchObject({ action: 'picture', outcome: 'domain-error' });
    });
  });

  describe('domain errors', () => {
    it('come back as isError with the envelope {error, message, …} as structuredContent and as JSON text', async () => {
      await start();
      const out = await call('docs', { action: 'missing', tabId: 'tab-9' });
      const envelope = { error: 'INVALID_TAB', message: 'No tab tab-9', tabId: 'tab-9' };
      expect(out.isError).toBe(true);
      expect(out.structured).toEqual(envelope);
      expect(JSON.parse(out.text)).toEqual(envelope);
    });

    it('render STALE with the instruction to re-read, naming current_revision', async () => {
      await start();
      const out = await call('docs', { action: 'stale' });
      const envelope = {
        error: 'STALE',
        message: 'Document has changed since the last read',
        current_revision: 'rev-abcDEF12',
      };
      expect(out.isError).toBe(true);
      expect(out.structured).toEqual(envelope);
      expect(out.text).toMatch(
        /^STALE: the document changed since your last read \(current_revision: rev-abcDEF12\)\. Re-read with `document\.read` \(or `selection\.get`\) and retry with the new revision — do not write the stale content back\./,
      );
      expect(out.text.endsWith(JSON.stringify(envelope))).toBe(true);
    });

    it('are not held to the output schema of a tool that declares one', async () => {
      await start();
      const out = await call('shaped', { action: 'stale' });
      expect(out.isError).toBe(true);
      expect(out.structured).toMatchObject({ error: 'STALE', current_revision: 'rev-ZZZZzzzz' });
    });
  });

  describe('unexpected failures', () => {
    it('turn a thrown Error into the INTERNAL envelope', async () => {
      await start();
      const out = await call('docs', { action: 'crash' });
      expect(out.isError).toBe(true);
      expect(out.structured).toEqual({ error: 'INTERNAL', message: 'disk on fire' });
      expect(JSON.parse(out.text)).toEqual({ error: 'INTERNAL', message: 'disk on fire' });
    });

    it('turn a thrown non-Error into the INTERNAL envelope too', async () => {
      await start();
      const out = await call('docs', { action: 'throwString' });
      expect(out).toMatchObject({
        isError: true,
        structured: { error: 'INTERNAL', message: 'not an Error object' },
      });
    });
  });

  describe('the 75 000-byte output bound', () => {
    it('replaces a larger result with the truncation envelope, as JSON within the bound, with the action\u2019s recovery hint', async () => {
      await start();
      const out = await call('docs', { action: 'read' });
      expect(out.isError).toBe(false);
      expect(bytes(out.text)).toBeLessThanOrEqual(BOUND);
      const envelope = JSON.parse(out.text) as Record<string, unknown>;
      expect(envelope).toMatchObject({
        truncated: true,
        bytes_total: bytes(JSON.stringify(big(200_000), null, 2)),
      });
      expect(envelope.truncation_note).toEqual(
        expect.stringMatching(/^=== \[VMark MCP\] OUTPUT TRUNCATED === /),
      );
      expect(envelope.truncation_note).toEqual(
        expect.stringContaining('To get the rest: use docs.read_range with a smaller range'),
      );
      expect(() => JSON.parse(envelope.preview as string) as unknown).toThrow();
      expect(out.structured).toEqual(envelope);
    });

    it('falls back to the tool\u2019s recovery hint, then to the host\u2019s default', async () => {
      await start();
      const fromTool = JSON.parse((await call('docs', { action: 'dump' })).text) as {
        truncation_note: string;
      };
      expect(fromTool.truncation_note).toContain('To get the rest: ask docs.read for a range');
      const fromHost = JSON.parse((await call('plain', { action: 'dump' })).text) as {
        truncation_note: string;
      };
      expect(fromHost.truncation_note).toContain('To get the rest: narrow the request');
    });

    it('lets the envelope through the output schema of a tool that declares one', async () => {
      await start();
      const out = await call('shaped', { action: 'huge' });
      expect(out.isError).toBe(false);
      expect(out.structured).toMatchObject({ truncated: true });
      expect(bytes(out.text)).toBeLessThanOrEqual(BOUND);
    });

    it('passes a result of exactly 75 000 bytes through whole, and truncates one byte more', async () => {
      await start();
      // Pretty-printed, {content: 'x' × n} is n + 19 bytes.
      const exact = await call('docs', { action: 'sized', size: BOUND - 19 });
      expect(bytes(exact.text)).toBe(BOUND);
      expect(exact.data).toEqual(big(BOUND - 19));
      const over = await call('docs', { action: 'sized', size: BOUND - 18 });
      expect(over.data).toMatchObject({ truncated: true, bytes_total: BOUND + 1 });
    });
  });

  describe('the toolCalled hook', () => {
    it('hears every call with its outcome', async () => {
      await start();
      await call('docs', { action: 'write', content: 'x' });
      await call('docs', { action: 'write' });
      await call('docs', { action: 'missing' });
      await call('docs', { action: 'crash' });
      expect(calls.map((c) => [c.tool, c.action, c.outcome])).toEqual([
        ['docs', 'write', 'ok'],
        ['docs', 'write', 'argument-error'],
        ['docs', 'missing', 'domain-error'],
        ['docs', 'crash', 'internal-error'],
      ]);
      expect(calls.every((c) => c.durationMs >= 0 && c.caller.clientName === 'vmark-test-kit')).toBe(true);
    });
  });

  describe('tools that come and go with their plugin', () => {
    it('disabling a plugin removes its tools and sends notifications/tools/list_changed; enabling brings them back', async () => {
      const { client, host } = await start();
      let notified = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        notified++;
      });

      await host.plugins.setEnabled('other-plugin', false);
      await expect.poll(() => notified, { timeout: 2_000 }).toBeGreaterThan(0);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['docs']);
      const out = await client.callTool({ name: 'plain', arguments: { action: 'dump' } });
      expect(out.isError).toBe(true);

      const before = notified;
      await host.plugins.setEnabled('other-plugin', true);
      await expect.poll(() => notified, { timeout: 2_000 }).toBeGreaterThan(before);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['docs', 'plain', 'shaped']);
    });

    it('a session opened after the change lists only the tools of active plugins', async () => {
      const { host } = await start();
      await host.plugins.setEnabled('docs-plugin', false);
      expect(
        host
          .tools()
          .map((t) => t.name)
          .sort(),
      ).toEqual(['plain', 'shaped']);
      const session = host.createMcpSession();
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const late = new Client({ name: 'late-client', version: '1.0.0' });
      try {
        await session.server.connect(serverSide);
        await late.connect(clientSide);
        expect((await late.listTools()).tools.map((t) => t.name).sort()).toEqual(['plain', 'shaped']);
      } finally {
        await late.close();
        session.dispose();
      }
    });
  });
});
