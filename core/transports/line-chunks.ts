import { Transform, type TransformCallback } from 'node:stream';

/**
 * Re-chunks a byte stream into whole newline-terminated lines. The SDK's stdio
 * reader concatenates its buffer with every chunk it receives, which is quadratic
 * in the size of one message (a 24 MB document write took seconds); handing it
 * one chunk per JSON-RPC line makes that linear.
 */
export class LineChunks extends Transform {
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(private readonly maxLineBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.#pending.push(chunk.subarray(start, newline + 1));
      this.push(this.#pending.length === 1 ? this.#pending[0] : Buffer.concat(this.#pending));
      this.#pending = [];
      this.#pendingBytes = 0;
      start = newline + 1;
    }
    if (start < chunk.length) {
      this.#pending.push(chunk.subarray(start));
      this.#pendingBytes += chunk.length - start;
    }
    // Past the bound, pass the bytes on: the SDK's own size check refuses them with a clear error.
    if (this.#pendingBytes > this.maxLineBytes) {
      this.push(Buffer.concat(this.#pending));
      this.#pending = [];
      this.#pendingBytes = 0;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.#pending.length > 0) this.push(Buffer.concat(this.#pending));
    done();
  }
}
