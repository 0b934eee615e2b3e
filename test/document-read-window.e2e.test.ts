import { readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, connectStdio, TempDirs } from './support/cli.js';

/*
 * A document larger than the output bound, read without an editor: `document.read` in
 * windows, through the built CLI and the real SDK client, which checks every structured
 * answer against the tool's output schema (listed first, as clients do).
 */

const temp = new TempDirs();
afterAll(() => temp.cleanup());

let workspace: string;
let home: string;
let client: Client;

beforeEach(async () => {
  workspace = await realpath(await temp.make());
  home = await temp.make('vmark-home-');
});
afterEach(() => client?.close());

async function open(name: string, content: string): Promise<string> {
  const file = path.join(workspace, name);
  await writeFile(file, content);
  ({ client } = await connectStdio(['--workspace', workspace, '--open', file], home));
  await client.listTools();
  return file;
}

describe('document.read with offset and length', () => {
  it('lists the window fields in the output schema, which admits no others', async () => {
    await open('a.md', '# A\n');
    const tool = (await client.listTools()).tools.find((t) => t.name === 'document')!;
    expect(tool.outputSchema!.additionalProperties).toBe(false);
    expect(tool.outputSchema!.properties).toMatchObject({
      offset: { type: 'number' },
      length: { type: 'number' },
      total_length: { type: 'number' },
      next_offset: { type: 'number' },
      window_note: { type: 'string' },
    });
    expect(tool.inputSchema.properties).toMatchObject({
      offset: { type: 'integer', minimum: 0 },
      length: { type: 'integer', minimum: 1 },
    });
    expect(tool.description).toMatch(/read \{offset, length\}/);
    expect(tool.description).toMatch(/a window is no basis for write/);
  });

  it('reads a 1 MB document whole, window after window, where one read is truncated', async () => {
    const line = '這是第一段很長的中文文字，with some English and 😀 in it.\n';
    const content = line.repeat(Math.ceil(1_000_000 / Buffer.byteLength(line)));
    const file = await open('big.md', content);

    const whole = await call(client, 'document', { action: 'read' });
    expect(whole.data).toMatchObject({ truncated: true });
    expect(whole.data.truncation_note).toMatch(/Read the document in windows instead/);

    const parts: string[] = [];
    let revision: unknown;
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const result = (await client.callTool({
        name: 'document',
        arguments: { action: 'read', offset, length: 20_000 },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const window = result.structuredContent as {
        content: string;
        revision: string;
        offset: number;
        length: number;
        total_length: number;
        next_offset?: number;
        window_note: string;
      };
      expect(window.offset).toBe(offset);
      expect(window.total_length).toBe(content.length);
      expect(window.window_note).toMatch(/no basis for a whole write/);
      revision ??= window.revision;
      expect(window.revision).toBe(revision);
      parts.push(window.content);
      offset = window.next_offset;
    }
    expect(parts.join('')).toBe(await readFile(file, 'utf8'));
    expect(parts.length).toBeGreaterThan(1);
  });

  it('answers a client that sends neither field exactly as before', async () => {
    const file = await open('a.md', '# A\n');
    const read = await call(client, 'document', { action: 'read' });
    const expected = {
      content: '# A\n',
      revision: read.data.revision,
      filePath: file,
      kind: 'markdown',
      dirty: false,
    };
    expect(read.text).toBe(JSON.stringify(expected, null, 2));
    expect(read.data).toStrictEqual(expected);
  });

  it('refuses bad windows with plain argument errors, naming the field', async () => {
    await open('a.md', 'ab😀cd\n');
    const refused = async (args: Record<string, unknown>) => {
      const result = await call(client, 'document', { action: 'read', ...args });
      expect(result.isError).toBe(true);
      expect(() => JSON.parse(result.text) as unknown).toThrow();
      return result.text;
    };
    expect(await refused({ offset: -1 })).toMatch(/^offset must be an integer of 0 or more/);
    expect(await refused({ offset: 0.5 })).toMatch(/^offset must be an integer of 0 or more/);
    expect(await refused({ length: 0 })).toMatch(/^length must be an integer of 1 or more/);
    expect(await refused({ offset: 8 })).toBe('offset 8 is past the end of the document (total_length 7)');
    expect(await refused({ offset: 3 })).toMatch(/^offset 3 falls inside a character outside the BMP/);
    expect(await refused({ offset: 0, length: 3 })).toMatch(/^the window would end at 3, inside/);
  });
});
