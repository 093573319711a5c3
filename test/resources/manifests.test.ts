import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { loadManifests, parseManifest } from '../../src/resources/manifests.js';

const QUEUE = `# intake
queue: q-1
permissions:
  - { id: "7", name: Ana, type: USER, permissions: [READ, ADMIN] }
  - id: g-1
    name: Admins
    type: GROUP
    permissions:
      - ADMIN
      - SHARE
`;

function problemsOf(fn: () => unknown): { line: number; column: number; message: string; file: string }[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err.problems;
    throw err;
  }
  return [];
}

describe('parseManifest', () => {
  it('keeps the position of every entry and value, and the text hash', () => {
    const { manifest, problems } = parseManifest('queue', QUEUE, 'permissions/queues/q1.yaml');
    expect(problems).toEqual([]);
    expect(manifest?.id).toBe('q-1');
    expect(manifest?.source.location).toEqual({ file: 'permissions/queues/q1.yaml', line: 2, column: 1 });
    const p = manifest!.source.paths;
    expect(p['permissions[0]']).toMatchObject({ line: 4, column: 5 });
    expect(p['permissions[0].permissions[1]']).toMatchObject({ line: 4, column: 59 });
    expect(p['permissions[1]']).toMatchObject({ line: 5, column: 5 });
    expect(p['permissions[1].type']).toMatchObject({ line: 7, column: 11 });
    expect(p['permissions[1].permissions[1]']).toMatchObject({ line: 10, column: 9 });
    // The hash of the text as read (computed when a plan reads it), the same as JSON copies say.
    expect(manifest?.source.sha256).toBe(createHash('sha256').update(QUEUE).digest('hex'));
    expect(JSON.parse(JSON.stringify(manifest?.source)).sha256).toBe(manifest?.source.sha256);
  });

  it('data files: publicAccess maps to its value, the numeric id stays a number', () => {
    const text = 'dataFile: 42\npublicAccess: true\nentries:\n  - { entityId: "7", grant: READ, pass: NONE }\n';
    const { manifest } = parseManifest('dataFile', text, 'df/42.yaml');
    expect(manifest?.id).toBe(42);
    expect(manifest?.source.paths.publicAccess).toEqual({ file: 'df/42.yaml', line: 2, column: 15 });
    expect(manifest?.source.paths['entries[0]']).toEqual({ file: 'df/42.yaml', line: 4, column: 5 });
  });

  it.each([
    ['type ROBOT', QUEUE.replace('type: GROUP', 'type: ROBOT'), 7, 11, /permissions\[1\]\.type must be one of USER, GROUP \(got "ROBOT"\)/],
    ['an unknown permission', QUEUE.replace('- SHARE', '- OWN'), 10, 9, /permissions\[1\]\.permissions\[1\] must be one of ADMIN, SHARE/],
    ['a numeric entry id', QUEUE.replace('id: "7"', 'id: 7'), 4, 11, /permissions\[0\]\.id must be string/],
    ['a missing name', QUEUE.replace('    name: Admins\n', ''), 5, 5, /missing required key "name" in permissions\[1\]/],
    ['an unknown key', QUEUE.replace('queue: q-1', 'queue: q-1\nowner: me'), 3, 1, /unknown key "owner"/],
    ['a YAML error', 'queue: [\n', 2, 1, /invalid YAML/],
  ])('refuses %s at its line and column', (_n, text, line, column, message) => {
    const { manifest, problems } = parseManifest('queue', text, 'q.yaml');
    expect(manifest).toBeNull();
    expect(problems[0]).toMatchObject({ file: 'q.yaml', line, column });
    expect(problems[0].message).toMatch(message);
  });

  it('a queue id YAML reads as a number is taken as written: 0123 stays "0123"', () => {
    const ids = ['0123', '0x1F', '1e3', '12'].map((id) => parseManifest('queue', QUEUE.replace('q-1', id), 'q.yaml').manifest?.id);
    expect(ids).toEqual(['0123', '0x1F', '1e3', '12']);
    const { manifest } = parseManifest('queue', QUEUE.replace('q-1', '0123  # the id'), 'q.yaml');
    expect([manifest?.id, manifest?.data.queue]).toEqual(['0123', '0123']);
    expect(parseManifest('queue', QUEUE.replace('q-1', '"0123"'), 'q.yaml').manifest?.id).toBe('0123');
  });

  it.each([['""'], ['"."'], ["'..'"], ['..']])('refuses the queue id %s at its position', (id) => {
    const { manifest, problems } = parseManifest('queue', QUEUE.replace('q-1', id), 'q.yaml');
    expect(manifest).toBeNull();
    const value = id.replace(/["']/g, '');
    expect(problems).toEqual([
      { file: 'q.yaml', line: 2, column: 8, message: `queue id "${value}" cannot be used: it must name one queue in the request path` },
    ]);
  });

  it('a data-file id is digits, plain or quoted; anything else is refused at its position', () => {
    const parse = (id: string) => parseManifest('dataFile', `dataFile: ${id}\npublicAccess: false\nentries: []\n`, 'd.yaml');
    expect(['42', '"42"', '0042'].map((id) => parse(id).manifest?.id)).toEqual([42, 42, 42]);
    for (const id of ['1e3', '0x10', '12.0', '-1', '"4 2"', 'abc']) {
      const got = id.startsWith('"') ? id.slice(1, -1) : id;
      expect([id, parse(id).manifest, parse(id).problems]).toEqual([
        id,
        null,
        [{ file: 'd.yaml', line: 1, column: 11, message: `dataFile must be written as digits, e.g. dataFile: 42 (got ${got})` }],
      ]);
    }
    expect(parse('9007199254740993').problems).toEqual([
      { file: 'd.yaml', line: 1, column: 11, message: 'dataFile 9007199254740993 is too large (at most 9007199254740991)' },
    ]);
    expect(parse('true').problems).toEqual([{ file: 'd.yaml', line: 1, column: 11, message: 'dataFile must be integer' }]);
  });

  it('refuses a data file whose publicAccess is not a boolean', () => {
    const { problems } = parseManifest('dataFile', 'dataFile: 1\npublicAccess: "no"\nentries: []\n', 'd.yaml');
    expect(problems).toEqual([{ file: 'd.yaml', line: 2, column: 15, message: 'publicAccess must be boolean' }]);
  });
});

describe('loadManifests', () => {
  it('collects every problem of every file, and refuses two files declaring one queue', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-mf-'));
    writeFileSync(path.join(dir, 'a.yaml'), QUEUE);
    writeFileSync(path.join(dir, 'b.yaml'), QUEUE);
    writeFileSync(path.join(dir, 'c.yaml'), QUEUE.replace('q-1', 'q-3').replace('type: USER', 'type: ROBOT'));
    const files = ['c.yaml', 'a.yaml', 'b.yaml'].map((f) => path.join(dir, f));
    let problems: { file: string; line: number; column: number; message: string }[] = [];
    await loadManifests('queue', files, dir).catch((err: InputError) => {
      problems = err.problems;
    });
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual(['b.yaml:2:1', 'c.yaml:4:33']);
    expect(problems[0].message).toBe('queue q-1 is already declared in a.yaml:2:1');
  });

  it('a missing file is a problem naming it', async () => {
    const problems = await loadManifests('dataFile', ['/nonexistent/x.yaml'], '/').catch((e: InputError) => e.problems);
    expect(problems).toMatchObject([{ file: 'nonexistent/x.yaml', line: 0 }]);
    expect(problemsOf(() => {})).toEqual([]);
  });
});
