// SHA-256 digests, with node:crypto loaded at the first one: loading it costs ~12 ms of a start
// on Node 24 (18 of Node's own modules), and `validate` computes none. A module that imported
// it at its top made every command whose chunks hold that module pay for it (esbuild hoists a
// chunk's imports: the CLI's chunks are shared between commands).
import type * as NodeCrypto from 'node:crypto';
import { createRequire } from 'node:module';

let loaded: typeof NodeCrypto | undefined;
const nodeCrypto = (): typeof NodeCrypto => (loaded ??= createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto);

/** SHA-256 of `data` (a string is hashed as UTF-8). */
export function sha256(data: string | Buffer, encoding: 'hex' | 'base64' = 'hex'): string {
  return nodeCrypto().createHash('sha256').update(data).digest(encoding);
}

/** HMAC-SHA256 of `data` under `key`, in hex. */
export function hmacSha256(key: string, data: string): string {
  return nodeCrypto().createHmac('sha256', key).update(data).digest('hex');
}
