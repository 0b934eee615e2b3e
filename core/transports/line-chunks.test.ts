import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineChunks } from './line-chunks.js';

/** The chunks as a `data` listener sees them (the SDK's stdio reader listens that way). */
function chunksOf(input: (string | Buffer)[], max = 1024): Promise<Buffer[]> {
  const out: Buffer[] = [];
  const stream = Readable.from(input.map((s) => Buffer.from(s))).pipe(new LineChunks(max));
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  return new Promise((resolve) => stream.on('end', () => resolve(out)));
}
const text = (chunks: Buffer[]) => chunks.map((c) => c.toString());

describe('LineChunks', () => {
  it('joins pieces of one line into one chunk', async () => {
    expect(text(await chunksOf(['{"a":', '1}', '\n']))).toEqual(['{"a":1}\n']);
  });

  it('splits several lines in one piece', async () => {
    expect(text(await chunksOf(['a\nb\nc']))).toEqual(['a\n', 'b\n', 'c']);
  });

  it('keeps multi-byte characters split across pieces intact', async () => {
    const bytes = Buffer.from('中文\n');
    const out = await chunksOf([bytes.subarray(0, 2), bytes.subarray(2)]);
    expect(text(out)).toEqual(['中文\n']);
  });

  it('passes an over-long line on instead of holding it', async () => {
    const out = await chunksOf(['x'.repeat(10), 'y'.repeat(10), '\n'], 15);
    expect(text(out).join('')).toBe('x'.repeat(10) + 'y'.repeat(10) + '\n');
    expect(out.length).toBeGreaterThan(1);
  });
});
