// A response body read up to a cap (after decompression: fetch inflates gzip as it streams): a
// body past it is abandoned at once, so a small gzip that inflates to gigabytes costs at most
// the cap in memory. Such an answer is an error of its read, never retried.

export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes (decompressed)`);
    this.name = 'BodyTooLargeError';
    this.maxBytes = maxBytes;
  }
}

export async function readCappedBody(response: Response, maxBytes: number): Promise<ArrayBuffer> {
  if (!response.body) return new ArrayBuffer(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out.buffer;
}
