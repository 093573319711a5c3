// Bytes that are not UTF-8 are bad input at their line and column (never replaced and sent on).
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { decodeUtf8 } from '../../src/io/input-file.js';

function problem(bytes: number[] | Buffer): string {
  try {
    decodeUtf8(Buffer.from(bytes as number[]), 'f.yaml');
    return 'decoded';
  } catch (e) {
    const [p] = (e as InputError).problems;
    return `${p.file}:${p.line}:${p.column}: ${p.message}`;
  }
}

describe('decodeUtf8', () => {
  it('valid UTF-8 (multi-byte, U+FFFD itself, a BOM) decodes as readFile would', () => {
    const text = '\uFEFFid: café 日本 \uFFFD 😀\n';
    expect(decodeUtf8(Buffer.from(text, 'utf8'), 'f.yaml')).toBe(text);
  });

  it('a Latin-1 byte is refused at its line and column, counting characters, not bytes', () => {
    const bytes = Buffer.concat([Buffer.from('a: 1\nname: ó日x', 'utf8'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(problem(bytes)).toBe('f.yaml:2:10: not UTF-8 (byte 0xe9): save the file as UTF-8');
  });

  it('a stray continuation byte, an overlong form and a truncated sequence at the end', () => {
    expect(problem([0x61, 0x80])).toBe('f.yaml:1:2: not UTF-8 (byte 0x80): save the file as UTF-8');
    expect(problem([0xc0, 0xaf])).toBe('f.yaml:1:1: not UTF-8 (byte 0xc0): save the file as UTF-8');
    expect(problem([0x0a, 0x0a, 0x61, 0xe6, 0x97])).toBe('f.yaml:3:2: not UTF-8 (byte 0xe6): save the file as UTF-8');
  });

  it('is an InputError (exit 2)', () => {
    expect(() => decodeUtf8(Buffer.from([0xff]), 'f.yaml')).toThrow(InputError);
  });
});
