// jsonChunks against JSON.stringify(value, null, 2): the same text for any JSON value (long
// arrays and short ones, at any depth, with the values JSON.stringify leaves out), in pieces that
// each end a line, so a redaction or a workflow-command guard applied piece by piece sees whole lines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks, jsonPieces } from '../../src/core/json-chunks.js';

const stringify = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** JSON-like values with the members JSON.stringify drops or turns into null, and dates. */
const loose = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.constantFrom(undefined, Number.NaN, -0, Number.POSITIVE_INFINITY, () => 1, Symbol('s'), new Date(0), '\u2028 › \n "q" ::x'),
    fc.array(tie('value'), { maxLength: 8 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('jsonChunks', () => {
  it('writes what JSON.stringify(value, null, 2) writes, for any value, streamed at any array length', () => {
    fc.assert(
      fc.property(loose, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 64 }), (value, long, chunk) => {
        // A report is an object: a bare undefined, function or symbol has no JSON text at all.
        fc.pre(JSON.stringify(value) !== undefined);
        const pieces = [...jsonChunks(value, { long, chunk })];
        expect(pieces.join('')).toBe(stringify(value));
        for (const piece of pieces) expect(piece.endsWith('\n')).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('in pieces without indentation, writes what JSON.stringify(value) writes, for any value, at any array length', () => {
    fc.assert(
      fc.property(loose, fc.integer({ min: 0, max: 4 }), (value, long) => {
        fc.pre(JSON.stringify(value) !== undefined);
        expect([...jsonPieces(value, long)].join('')).toBe(JSON.stringify(value));
      }),
      { numRuns: 400 },
    );
  });

  it('writes a long array without indentation in pieces, none of them the whole array', () => {
    const ids = Array.from({ length: 2_000 }, (_, i) => `id-${i}`);
    const pieces = [...jsonPieces({ policies: [{ id: 'p', resourceIds: ids }] })];
    expect(pieces.join('')).toBe(JSON.stringify({ policies: [{ id: 'p', resourceIds: ids }] }));
    // 512 ids a batch: four batches, none holding all 2,000.
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(JSON.stringify(ids).length / 3);
  });

  it('writes a report of 300,000 resource ids in pieces of about 64 KiB, each ending a line', () => {
    const ids = Array.from({ length: 300_000 }, (_, i) => String(1_000_000 + i));
    const report = { schemaVersion: 1, policies: [{ id: 'p', description: 'Admin › Roles', resourceIds: ids }, { id: 'q', resourceIds: [] }], findings: [{ policy: 'p', message: 'm' }] };
    const pieces = [...jsonChunks(report)];
    expect(pieces.join('')).toBe(stringify(report));
    expect(pieces.length).toBeGreaterThan(50);
    // 512 id lines of 17 characters are written at a time: every piece but the last gathers
    // lines up to 64 KiB, within one batch of it.
    const batch = 512 * 17;
    expect(pieces.slice(0, -1).every((p) => p.length > (1 << 16) - batch && p.length < (1 << 16) + batch)).toBe(true);
  });
});
