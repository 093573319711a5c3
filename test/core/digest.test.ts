// SHA-256 digests with node:crypto loaded at the first one (core/digest.ts): the same answers
// as node:crypto's own, in each encoding, and the HMAC the webhook signature uses.
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256, sha256 } from '../../src/core/digest.js';

describe('digest', () => {
  it('sha256 is hex by default, base64 when asked, and hashes a string as UTF-8 as a Buffer of it', () => {
    expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256('abc', 'base64')).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
    expect(sha256('zürich')).toBe(createHash('sha256').update(Buffer.from('zürich', 'utf8')).digest('hex'));
    expect(sha256(Buffer.from([0, 255]))).toBe(createHash('sha256').update(Buffer.from([0, 255])).digest('hex'));
  });

  it('hmacSha256 is the hex HMAC-SHA256 under the key (RFC 4231 test case 2)', () => {
    expect(hmacSha256('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    expect(hmacSha256('k', 'body')).toBe(createHmac('sha256', 'k').update('body').digest('hex'));
  });
});
