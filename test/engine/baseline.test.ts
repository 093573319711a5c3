// The baseline file names what each fingerprint was about, so resolved entries can be shown;
// older files holding only fingerprints still read; a bad or missing file is bad input.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareBaseline, parseBaseline, readBaseline, writeBaseline } from '../../src/engine/baseline.js';
import { makeFinding } from '../fixtures/report.js';
import { inputProblems as problems } from '../fixtures/input.js';

const NOW = new Date('2026-01-15T12:00:00Z');
const A = makeFinding({ fingerprint: 'aa11', path: 'permissions[0]', message: 'User Ana (7) holds ADMIN' });
const B = makeFinding({
  policy: 'no-misconfigured-schedules',
  resource: { kind: 'reportSchedule', id: '9001', name: 'Board KPI Pack' },
  path: null,
  message: 'Schedule 9001 is misconfigured',
  fingerprint: 'bb22',
});

const dir = () => mkdtempSync(path.join(tmpdir(), 'steward-baseline-'));

describe('baseline entries', () => {
  it('records policy, resource, path and message per fingerprint; a resolved entry is named by them', async () => {
    const file = path.join(dir(), 'baseline.json');
    await writeBaseline(file, [B, A, makeFinding({ status: 'error', fingerprint: 'ee' })], NOW);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toEqual({
      version: 1,
      createdAt: NOW.toISOString(),
      fingerprints: ['aa11', 'bb22'],
      entries: {
        aa11: { policy: 'queue-no-admin-for-users', resource: { kind: 'queue', id: 'q-finance-intake' }, path: 'permissions[0]', message: 'User Ana (7) holds ADMIN' },
        bb22: { policy: 'no-misconfigured-schedules', resource: { kind: 'reportSchedule', id: '9001' }, path: null, message: 'Schedule 9001 is misconfigured' },
      },
    });
    const data = await readBaseline(file, 'baseline.json');
    const compared = compareBaseline([A], data);
    expect(compared.resolved).toEqual(['bb22']);
    expect(compared.resolvedEntries).toEqual([{ fingerprint: 'bb22', ...written.entries.bb22 }]);
  });

  it('reads a file holding only fingerprints; its resolved entries are bare fingerprints', () => {
    const data = parseBaseline('{"version":1,"createdAt":"x","fingerprints":["aa11","bb22"]}', 'b.json');
    expect(compareBaseline([A], data).resolvedEntries).toEqual([{ fingerprint: 'bb22' }]);
  });

  it('a missing file says how to create it', async () => {
    const file = path.join(dir(), 'nope.json');
    await expect(readBaseline(file, 'nope.json')).rejects.toMatchObject({
      problems: [
        { file: 'nope.json', line: 0, column: 0, message: 'baseline file not found: create it with `steward check --write-baseline nope.json`' },
      ],
    });
  });

  it('a JSON or shape error names line and column', async () => {
    const file = path.join(dir(), 'b.json');
    writeFileSync(file, '{\n  "version": 1,\n  "fingerprints": ["aa11",]\n}\n');
    await expect(readBaseline(file, 'b.json')).rejects.toMatchObject({
      problems: [{ file: 'b.json', line: 3, column: 27, message: "baseline is not JSON: Unexpected token ']'" }],
    });
    const badEntry = '{\n  "version": 1,\n  "fingerprints": ["aa11"],\n  "entries": {\n    "aa11": { "policy": 3 }\n  }\n}\n';
    expect(problems(() => parseBaseline(badEntry, 'b.json'))).toEqual([
      { file: 'b.json', line: 5, column: 13, message: 'baseline entry aa11: "policy" must be a string' },
    ]);
    expect(problems(() => parseBaseline('{\n  "version": 1,\n  "fingerprints": [1]\n}', 'b.json'))).toEqual([
      { file: 'b.json', line: 3, column: 20, message: 'baseline "fingerprints" must be an array of strings' },
    ]);
  });
});
