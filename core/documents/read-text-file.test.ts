import { isUtf8 } from 'node:buffer';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotTextError, readTextBytes, readTextFile } from './read-text-file.js';

let folder: string;
beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'vmark-read-text-'));
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

const fatal = new TextDecoder('utf-8', { fatal: true });
const decodes = (bytes: Uint8Array): boolean => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** Bytes around every boundary of well-formed UTF-8: leads, continuations, overlongs, surrogates, past U+10FFFF. */
const edgeBytes = fc
  .uint8Array({ maxLength: 12 })
  .chain((filler) =>
    fc
      .array(
        fc.constantFrom(
          0x00,
          0x41,
          0x7f,
          0x80,
          0x8f,
          0x90,
          0x9f,
          0xa0,
          0xbf,
          0xc0,
          0xc1,
          0xc2,
          0xdf,
          0xe0,
          0xe1,
          0xed,
          0xee,
          0xef,
          0xf0,
          0xf1,
          0xf4,
          0xf5,
          0xff,
        ),
        { maxLength: 12 },
      )
      .map((picked) => Uint8Array.from([...picked, ...filler.slice(0, 2)])),
  );

describe('readTextBytes', () => {
  it('checks UTF-8 as the fatal decoder does (node:buffer isUtf8, which it uses)', () => {
    fc.assert(
      fc.property(edgeBytes, (bytes) => {
        expect(isUtf8(bytes)).toBe(decodes(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a file the fatal decoder refuses, and keeps the bytes of one it accepts', async () => {
    const file = path.join(folder, 'edge.md');
    const cases = [
      [0x61, 0xe2, 0x9c, 0x93, 0xf0, 0x9f, 0x98, 0x80], // a ✓ 😀
      [0xc0, 0xaf], // overlong
      [0xed, 0xa0, 0x80], // a surrogate
      [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
      [0x61, 0xe2, 0x9c], // cut short
      [0xef, 0xbb, 0xbf, 0x61], // a byte order mark: text
    ];
    for (const bytes of cases.map((c) => Uint8Array.from(c))) {
      await fs.writeFile(file, bytes);
      const read = await readTextBytes(file).catch((error: unknown) => error);
      if (!decodes(bytes)) {
        expect(read).toBeInstanceOf(NotTextError);
        continue;
      }
      expect(Buffer.from((read as { bytes: Uint8Array }).bytes)).toEqual(Buffer.from(bytes));
      expect((await readTextFile(file)).content).toBe(fatal.decode(bytes));
    }
  });

  it('gives the disk state of the bytes it read', async () => {
    const file = path.join(folder, 'state.md');
    await fs.writeFile(file, 'state ✓\n');
    const { bytes, disk } = await readTextBytes(file);
    expect(Number(disk.size)).toBe(bytes.length);
    expect((await readTextFile(file)).disk).toEqual(disk);
  });
});
