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
      instances: { default: ['aa11', 'bb22'] },
      entries: {
        aa11: { policy: 'queue-no-admin-for-users', resource: { kind: 'queue', id: 'q-finance-intake' }, path: 'permissions[0]', message: 'User Ana (7) holds ADMIN' },
        bb22: { policy: 'no-misconfigured-schedules', resource: { kind: 'reportSchedule', id: '9001' }, path: null, message: 'Schedule 9001 is misconfigured' },
      },
    });
    const data = await readBaseline(file, 'baseline.json');
    const compared = compareBaseline([A], data, 'default');
    expect(compared.resolved).toEqual(['bb22']);
    expect(compared.resolvedEntries).toEqual([{ fingerprint: 'bb22', ...written.entries.bb22 }]);
  });

  it('waived findings are recorded (and judged new or known) like violations; errors are not; resolved fingerprints come sorted', async () => {
    const waived = makeFinding({ status: 'waived', fingerprint: 'cc33' });
    const error = makeFinding({ status: 'error', fingerprint: 'dd44' });
    const file = path.join(dir(), 'baseline.json');
    const written = await writeBaseline(file, [waived, error], NOW);
    expect(written.fingerprints).toEqual(['cc33']);
    const compared = compareBaseline([waived, error], { version: 1, createdAt: '', fingerprints: ['zz', 'cc33', 'aa'], entries: {} }, 'default');
    expect(compared.findings.map((f) => f.baseline)).toEqual(['known', null]);
    expect(compared.resolved).toEqual(['aa', 'zz']);
  });

  it('reads a file holding only fingerprints; its resolved entries are bare fingerprints', () => {
    const data = parseBaseline('{"version":1,"createdAt":"x","fingerprints":["aa11","bb22"]}', 'b.json');
    expect(compareBaseline([A], data, 'prod').resolvedEntries).toEqual([{ fingerprint: 'bb22' }]);
  });

  it('keeps each instance\'s fingerprints apart: a finding is known only where its own instance recorded it', async () => {
    const file = path.join(dir(), 'baseline.json');
    await writeBaseline(file, [{ ...B, instance: 'staging' }, { ...B, instance: 'prod' }, { ...A, instance: 'prod' }], NOW);
    const data = await readBaseline(file, 'baseline.json');
    expect(data.fingerprints).toEqual(['aa11', 'bb22']);
    // Instances by name and fingerprints sorted: the same findings write the same file.
    expect(JSON.stringify(data.instances)).toBe(JSON.stringify({ prod: ['aa11', 'bb22'], staging: ['bb22'] }));
    // A on staging is new there (prod accepted it); B known on both; each instance resolves its own.
    const staging = compareBaseline([A], data, 'staging');
    expect(staging.findings.map((f) => f.baseline)).toEqual(['new']);
    expect(staging.resolved).toEqual(['bb22']);
    const prod = compareBaseline([A], data, 'prod');
    expect(prod.findings.map((f) => f.baseline)).toEqual(['known']);
    expect(prod.resolved).toEqual(['bb22']);
    // An instance the file does not name knows nothing and resolves nothing.
    const other = compareBaseline([A, B], data, 'dev');
    expect([other.findings.map((f) => f.baseline), other.resolved]).toEqual([['new', 'new'], []]);
  });

  it('a missing file says how to create it', async () => {
    const file = path.join(dir(), 'nope.json');
    await expect(readBaseline(file, 'nope.json')).rejects.toMatchObject({
      problems: [
        { file: 'nope.json', line: 0, column: 0, message: 'baseline file not found: create it with `steward check --write-baseline nope.json`' },
      ],
    });
  });

  it('a file that cannot be read (a folder) is bad input naming the cause, not "not found"', async () => {
    const folder = dir();
    await expect(readBaseline(folder, 'baseline.json')).rejects.toMatchObject({
      problems: [{ file: 'baseline.json', line: 0, column: 0, message: expect.stringMatching(/^cannot read baseline: EISDIR/) }],
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

  // Where each shape rule points: at the offending value (an editor jumps there).
  it.each([
    ['a version other than 1', '{\n  "version": 2,\n  "fingerprints": []\n}', 2, 14],
    ['fingerprints not an array', '{\n  "version": 1,\n  "fingerprints": "aa11"\n}', 3, 19],
    ['entries an array', '{\n  "version": 1,\n  "fingerprints": [],\n  "entries": []\n}', 4, 14],
    ['instances an array', '{\n  "version": 1,\n  "fingerprints": [],\n  "instances": []\n}', 4, 16],
    ['an instance not a list', '{\n  "version": 1,\n  "fingerprints": ["aa11"],\n  "instances": {\n    "prod": "aa11"\n  }\n}', 5, 13],
    ['an instance listing an unknown fingerprint', '{\n  "version": 1,\n  "fingerprints": ["aa11"],\n  "instances": {\n    "prod": ["aa11", "bb22"]\n  }\n}', 5, 22],
  ])('%s: points at the value', (_name, text, line, column) => {
    const found = problems(() => parseBaseline(text, 'b.json'));
    expect(found === 'no error' ? found : found.map((p) => [p.line, p.column])).toEqual([[line, column]]);
  });

  // Each shape rule of a baseline file, with the whole message: a rule dropped or loosened lets a
  // malformed baseline through (and then the gate compares against the wrong fingerprints).
  const entry = (e: string) => `{"version":1,"fingerprints":["aa11"],"entries":{"aa11":${e}}}`;
  it.each([
    ['no version', '{"fingerprints":[]}', 'baseline must be { "version": 1, ... }'],
    ['version 2', '{"version":2,"fingerprints":[]}', 'baseline must be { "version": 1, ... }'],
    ['an array', '[1]', 'baseline must be { "version": 1, ... }'],
    ['null', 'null', 'baseline must be { "version": 1, ... }'],
    ['fingerprints not an array', '{"version":1,"fingerprints":"aa11"}', 'baseline "fingerprints" must be an array of strings'],
    ['a fingerprint not a string', '{"version":1,"fingerprints":["aa11",null]}', 'baseline "fingerprints" must be an array of strings'],
    ['entries an array', '{"version":1,"fingerprints":[],"entries":[]}', 'baseline "entries" must be an object keyed by fingerprint'],
    ['entries null', '{"version":1,"fingerprints":[],"entries":null}', 'baseline "entries" must be an object keyed by fingerprint'],
    ['an entry not an object', entry('"x"'), 'baseline entry aa11: must be an object { policy, resource, path, message }'],
    ['an entry an array', entry('[]'), 'baseline entry aa11: must be an object { policy, resource, path, message }'],
    ['an entry null', entry('null'), 'baseline entry aa11: must be an object { policy, resource, path, message }'],
    ['resource missing', entry('{"policy":"p","path":null,"message":"m"}'), 'baseline entry aa11: "resource" must be { "kind": string, "id": string }'],
    ['resource an array', entry('{"policy":"p","resource":[],"path":null,"message":"m"}'), 'baseline entry aa11: "resource" must be { "kind": string, "id": string }'],
    ['resource kind a number', entry('{"policy":"p","resource":{"kind":1,"id":"x"},"path":null,"message":"m"}'), 'baseline entry aa11: "resource" must be { "kind": string, "id": string }'],
    ['resource id a number', entry('{"policy":"p","resource":{"kind":"queue","id":1},"path":null,"message":"m"}'), 'baseline entry aa11: "resource" must be { "kind": string, "id": string }'],
    ['path a number', entry('{"policy":"p","resource":{"kind":"queue","id":"x"},"path":1,"message":"m"}'), 'baseline entry aa11: "path" must be a string or null'],
    ['path missing', entry('{"policy":"p","resource":{"kind":"queue","id":"x"},"message":"m"}'), 'baseline entry aa11: "path" must be a string or null'],
    ['message missing', entry('{"policy":"p","resource":{"kind":"queue","id":"x"},"path":"a"}'), 'baseline entry aa11: "message" must be a string'],
    ['instances an array', '{"version":1,"fingerprints":[],"instances":[]}', 'baseline "instances" must be an object of fingerprint lists keyed by instance name'],
    ['an instance not a list', '{"version":1,"fingerprints":["aa11"],"instances":{"prod":"aa11"}}', 'baseline instance prod: must be an array of fingerprints'],
    ['an instance listing an unknown fingerprint', '{"version":1,"fingerprints":["aa11"],"instances":{"prod":["aa11","bb22"]}}', 'baseline instance prod: every entry must be one of "fingerprints"'],
    ['an instance listing a number', '{"version":1,"fingerprints":["aa11"],"instances":{"prod":[1]}}', 'baseline instance prod: every entry must be one of "fingerprints"'],
  ])('%s: refused with the whole message', (_name, text, message) => {
    const found = problems(() => parseBaseline(text, 'b.json'));
    expect(found === 'no error' ? found : found.map((p) => [p.file, p.message])).toEqual([['b.json', message]]);
  });

  it('a well-formed file with entries reads whole: createdAt kept, entries by fingerprint, a missing createdAt empty', () => {
    const e = { policy: 'p', resource: { kind: 'queue', id: 'x' }, path: null, message: 'm' };
    expect(parseBaseline(JSON.stringify({ version: 1, createdAt: '2026-01-01', fingerprints: ['aa11'], entries: { aa11: e } }), 'b.json')).toEqual({
      version: 1,
      createdAt: '2026-01-01',
      fingerprints: ['aa11'],
      entries: { aa11: e },
    });
    expect(parseBaseline('{"version":1,"fingerprints":[]}', 'b.json')).toEqual({ version: 1, createdAt: '', fingerprints: [], entries: {} });
  });
});
