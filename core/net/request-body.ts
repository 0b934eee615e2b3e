import type { IncomingMessage } from 'node:http';

export type BodyRead = { readonly tooLarge: false; readonly body: Buffer } | { readonly tooLarge: true };

/**
 * Reads a request's body, up to `maxBytes`. A declared `Content-Length` over the bound is
 * refused before a byte is read; otherwise reading stops at the chunk that passes it and what
 * came so far is dropped. Either way the rest is never read: answer with `Connection: close`.
 * Rejects when the client goes away before the end of its body.
 */
export function readRequestBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  if (Number(request.headers['content-length']) > maxBytes) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      request.pause();
      chunks = [];
      resolve({ tooLarge: true });
    };
    const onEnd = () => {
      stop();
      resolve({ tooLarge: false, body: Buffer.concat(chunks, size) });
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // 'close' before 'end': the client hung up (or a timeout cut it off) in the middle of its body.
    const onClose = () => {
      stop();
      reject(new Error('the client closed the connection before the end of its request'));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}
