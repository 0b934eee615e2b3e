import { defineAction, defineTool, optionalBoolean, optionalId, requiredString, z } from '@vmark/sdk';
import { startTestHost, type TestHost, toolPlugin } from '@vmark/sdk/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/*
 * The argument checks a composite tool applies, seen from a real MCP client:
 * the MCP SDK checks types against the tool's flat schema, then the host checks
 * what the chosen action needs. Argument-shape errors are plain strings.
 */

/** What the handlers received, in call order. */
let received: { action: string; args: Record<string, unknown> }[] = [];

const record =
  (action: string) =>
  (args: Record<string, unknown>): Record<string, unknown> => {
    received.push({ action, args });
    return { ok: true, action };
  };

const notes = defineTool({
  name: 'notes',
  title: 'Test Notes',
  description: 'A tool used by the argument-check tests',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  actions: {
    read: defineAction({ args: { tabId: optionalId('tabId', 'tab') }, run: record('read') }),
    write: defineAction({
      args: {
        content: requiredString('content'),
        tabId: optionalId('tabId', 'tab'),
        save: optionalBoolean('save'),
      },
      run: record('write'),
    }),
    search: defineAction({
      args: { query: z.string(), limit: z.number().int().optional() },
      run: record('search'),
    }),
    ping: defineAction({ args: {}, run: record('ping') }),
  },
});

const lenient = defineTool({
  name: 'lenient',
  title: 'Lenient',
  description: 'Ignores arguments it does not take',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  extraArgs: 'ignore',
  actions: { status: defineAction({ args: {}, run: record('status') }) },
});

let kit: TestHost;

beforeEach(async () => {
  received = [];
  kit = await startTestHost({
    plugins: [toolPlugin('arg-test', [notes, lenient])],
  });
});

afterEach(async () => {
  await kit.dispose();
});

describe('argument checks', () => {
  it('hands an action exactly the arguments it declares, with identifiers trimmed', async () => {
    const out = await kit.call('notes', {
      action: 'write',
      content: '  body  ',
      tabId: '  tab-1 ',
      save: true,
    });
    expect(out.isError).toBe(false);
    expect(received).toEqual([
      { action: 'write', args: { content: '  body  ', tabId: 'tab-1', save: true } },
    ]);
  });

  it('lets optional arguments be left out', async () => {
    const out = await kit.call('notes', { action: 'read' });
    expect(out.isError).toBe(false);
    expect(received).toEqual([{ action: 'read', args: {} }]);
  });

  describe('a missing required argument', () => {
    it('is refused with the plain string "content (string) is required"', async () => {
      const out = await kit.call('notes', { action: 'write' });
      expect(out).toMatchObject({
        isError: true,
        text: 'content (string) is required',
        structured: undefined,
      });
      expect(received).toEqual([]);
    });

    it('is named with its type even when its schema has no message of its own', async () => {
      const out = await kit.call('notes', { action: 'search' });
      expect(out).toMatchObject({ isError: true, text: 'query (string) is required', structured: undefined });
    });
  });

  describe('an argument the action does not take', () => {
    it('is refused when it belongs to another action, with a plain string naming it and what the action takes', async () => {
      const out = await kit.call('notes', { action: 'read', content: 'x' });
      expect(out).toMatchObject({
        isError: true,
        text: 'content is not an argument of notes.read; it takes: tabId',
        structured: undefined,
      });
      expect(received).toEqual([]);
    });

    it('names every such argument at once', async () => {
      const out = await kit.call('notes', { action: 'read', content: 'x', query: 'y' });
      expect(out.text).toBe('content, query are not arguments of notes.read; it takes: tabId');
    });

    it('says when the action takes no arguments at all', async () => {
      const out = await kit.call('notes', { action: 'ping', tabId: 't1' });
      expect(out.text).toBe('tabId is not an argument of notes.ping; it takes no arguments');
    });

    it('is refused when no action of the tool declares it', async () => {
      const out = await kit.call('notes', { action: 'read', bogus: 1 });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('bogus');
      expect(out.structured).toBeUndefined();
      expect(received).toEqual([]);
    });

    it('is dropped instead on a tool that ignores extra arguments', async () => {
      const out = await kit.call('lenient', { action: 'status', stray: true, tabId: '' });
      expect(out.isError).toBe(false);
      expect(received).toEqual([{ action: 'status', args: {} }]);
    });
  });

  describe('the action', () => {
    it('is refused when it is not one of the tool\u2019s, listing the ones it has', async () => {
      const out = await kit.call('notes', { action: 'x' });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('Invalid action: x. Expected: read, write, search, ping');
      expect(out.structured).toBeUndefined();
      expect(received).toEqual([]);
    });

    it('is required', async () => {
      const out = await kit.call('notes', { content: 'x' });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('action (string) is required; expected: read, write, search, ping');
      expect(received).toEqual([]);
    });
  });

  describe('an optional identifier', () => {
    it.each(['', '   ', '\t'])(
      'supplied blank (%j) is refused, never taken to mean "the focused tab"',
      async (tabId) => {
        const out = await kit.call('notes', { action: 'read', tabId });
        expect(out.isError).toBe(true);
        expect(out.text).toContain(
          'tabId must be a non-empty string when provided — omit it to target the focused tab',
        );
        expect(received).toEqual([]);
      },
    );

    it('of the wrong type is refused with the same message', async () => {
      const out = await kit.call('notes', { action: 'read', tabId: 42 });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('tabId must be a non-empty string when provided');
    });
  });

  describe('arguments of the wrong type', () => {
    it('refuses a non-boolean save rather than dropping it', async () => {
      const out = await kit.call('notes', { action: 'write', content: 'x', save: 'yes' });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('save must be a boolean');
      expect(received).toEqual([]);
    });

    it('refuses a number where a string is required', async () => {
      const out = await kit.call('notes', { action: 'write', content: 5 });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('content (string) is required');
    });

    it('refuses a value its action\u2019s schema does not accept', async () => {
      const out = await kit.call('notes', { action: 'search', query: 'q', limit: 1.5 });
      expect(out.isError).toBe(true);
      expect(out.text).toContain('limit');
      expect(received).toEqual([]);
    });
  });
});

describe('argument schemas that transform their input', () => {
  const splitArgs = { tags: z.string().transform((s) => s.split(',')) };
  const tagged = defineTool({
    name: 'tagged',
    title: 'Tagged',
    description: 'Takes a comma-separated list',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    actions: {
      tag: defineAction({
        args: splitArgs,
        run: (args) => {
          received.push({ action: 'tag', args });
          return args.tags;
        },
      }),
    },
  });

  it('runs the transform once, so the action gets its output', async () => {
    const transformKit = await startTestHost({
      plugins: [toolPlugin('transform-test', [tagged])],
    });
    try {
      const out = await transformKit.call('tagged', { action: 'tag', tags: 'a,b' });
      expect(out).toMatchObject({ isError: false, data: ['a', 'b'] });
      expect(received).toEqual([{ action: 'tag', args: { tags: ['a', 'b'] } }]);
    } finally {
      await transformKit.dispose();
    }
  });
});
