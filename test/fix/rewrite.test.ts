import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ManifestRewriteError, rewriteManifest } from '../../src/fix/rewrite.js';

const QUEUE = `# Finance intake queue.
queue: q-finance-intake   # the id
permissions:                       # the full list
  - { id: "7", name: Ana Ruiz, type: USER, permissions: [READ, ADMIN] }   # TODO: via group
  - { id: 'g-88', name: "Finance Admins", type: GROUP, permissions: [ADMIN] }
  # Ben is the backup approver
  - id: "9"
    name: Ben Okafor
    type: USER
    permissions:
      - READ
      - ADMIN   # temporary
      - WRITE
  - id: "12"
    name: Chen Wei
    type: USER
    permissions: [ADMIN]
# end of file
`;

type Entry = { id: string; name: string; type: string; permissions: string[] };
const entries = (): Entry[] => parse(QUEUE).permissions;

/** Lines of `after` that are not in `before`, and the reverse, by position-insensitive diff. */
function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence table: small inputs, exact answer.
  const lcs = a.map(() => new Array<number>(b.length + 1).fill(0));
  lcs.push(new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const removed: string[] = [];
  const added: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || lcs[i][j + 1] >= lcs[i + 1][j])) added.push(b[j++]);
    else removed.push(a[i++]);
  }
  return { removed, added };
}

describe('rewriteManifest', () => {
  it('revoking ADMIN in a flow sequence changes only that value', () => {
    const next = entries();
    next[0].permissions = ['READ'];
    const out = rewriteManifest(QUEUE, { permissions: next });
    expect(lineDiff(QUEUE, out)).toEqual({
      removed: ['  - { id: "7", name: Ana Ruiz, type: USER, permissions: [READ, ADMIN] }   # TODO: via group'],
      added: ['  - { id: "7", name: Ana Ruiz, type: USER, permissions: [READ] }   # TODO: via group'],
    });
    expect(parse(out).permissions).toEqual(next);
  });

  it('revoking ADMIN in a block sequence removes that item line only (with its comment)', () => {
    const next = entries();
    next[2].permissions = ['READ', 'WRITE'];
    const out = rewriteManifest(QUEUE, { permissions: next });
    expect(lineDiff(QUEUE, out)).toEqual({ removed: ['      - ADMIN   # temporary'], added: [] });
  });

  it('an entry whose permissions become empty gets [] (flow and block)', () => {
    const next = entries();
    next[1].permissions = [];
    next[2].permissions = [];
    const out = rewriteManifest(QUEUE, { permissions: next });
    expect(lineDiff(QUEUE, out)).toEqual({
      removed: [
        `  - { id: 'g-88', name: "Finance Admins", type: GROUP, permissions: [ADMIN] }`,
        '    permissions:',
        '      - READ',
        '      - ADMIN   # temporary',
        '      - WRITE',
      ],
      added: [`  - { id: 'g-88', name: "Finance Admins", type: GROUP, permissions: [] }`, '    permissions: []'],
    });
    expect(parse(out).permissions).toEqual(next);
  });

  it('removing entries removes only their lines; comments of other entries stay', () => {
    const next = entries();
    const out = rewriteManifest(QUEUE, { permissions: [next[1], next[2]] });
    expect(lineDiff(QUEUE, out)).toEqual({
      removed: [
        '  - { id: "7", name: Ana Ruiz, type: USER, permissions: [READ, ADMIN] }   # TODO: via group',
        '  - id: "12"',
        '    name: Chen Wei',
        '    type: USER',
        '    permissions: [ADMIN]',
      ],
      added: [],
    });
    expect(out).toContain('  # Ben is the backup approver\n  - id: "9"');
    expect(out.endsWith('# end of file\n')).toBe(true);
  });

  it('removing every entry leaves `permissions: []` and keeps the key comment', () => {
    const out = rewriteManifest(QUEUE, { permissions: [] });
    expect(out.split('\n').slice(0, 3)).toEqual([
      '# Finance intake queue.',
      'queue: q-finance-intake   # the id',
      'permissions: []                       # the full list',
    ]);
    expect(parse(out).permissions).toEqual([]);
  });

  it('flips publicAccess and removes a block-style data-file entry', () => {
    const text = `# Payroll extract.
dataFile: 43
publicAccess: true   # shared with the partner portal
entries:
  - entityId: "7"
    grant: READ_WRITE_DELETE_SHARE_ADMIN
    pass: NONE
  - { entityId: "9", grant: READ, pass: NONE }
`;
    const out = rewriteManifest(text, {
      id: 43,
      publicAccess: false,
      entries: [{ entityId: '9', grant: 'READ', pass: 'NONE' }],
    });
    expect(out).toBe(`# Payroll extract.
dataFile: 43
publicAccess: false  # shared with the partner portal
entries:
  - { entityId: "9", grant: READ, pass: NONE }
`);
  });

  it('keeps a trailing comment in its column when a value gets longer or shorter (one space at least)', () => {
    const doc = (publicAccess: boolean) => ({ publicAccess, entries: [] });
    expect(rewriteManifest('dataFile: 1\npublicAccess: true   # c\nentries: []\n', doc(false))).toBe(
      'dataFile: 1\npublicAccess: false  # c\nentries: []\n',
    );
    expect(rewriteManifest('dataFile: 1\npublicAccess: false  # c\nentries: []\n', doc(true))).toBe(
      'dataFile: 1\npublicAccess: true   # c\nentries: []\n',
    );
    expect(rewriteManifest('dataFile: 1\npublicAccess: true # c\nentries: []\n', doc(false))).toBe(
      'dataFile: 1\npublicAccess: false # c\nentries: []\n',
    );
    // No comment: trailing spaces are left as they are.
    expect(rewriteManifest('dataFile: 1\npublicAccess: true   \nentries: []\n', doc(false))).toBe(
      'dataFile: 1\npublicAccess: false   \nentries: []\n',
    );
    const demo = readFileSync('demo/permissions/data-files/42.yaml', 'utf8');
    const line = (text: string) => text.split('\n').find((l) => l.startsWith('publicAccess:'))!;
    const out = rewriteManifest(demo, { ...parse(demo), publicAccess: false });
    expect(line(out).indexOf('#')).toBe(line(demo).indexOf('#'));
    expect(line(out)).toBe(line(demo).replace('true ', 'false'));
  });

  it('is idempotent: the same state again returns the identical text', () => {
    const next = entries();
    next[0].permissions = ['READ'];
    const once = rewriteManifest(QUEUE, { permissions: next });
    expect(rewriteManifest(once, { permissions: next })).toBe(once);
    expect(rewriteManifest(QUEUE, { permissions: entries() })).toBe(QUEUE);
  });

  it('keeps a multi-line flow sequence readable: the removed line goes, comments of kept lines stay', () => {
    const text = 'queue: q\npermissions:\n  - id: "1"\n    name: A\n    type: USER\n    permissions: [\n      READ,   # r\n      ADMIN,  # a\n    ]\n';
    const out = rewriteManifest(text, { permissions: [{ id: '1', name: 'A', type: 'USER', permissions: ['READ'] }] });
    expect(out).toBe('queue: q\npermissions:\n  - id: "1"\n    name: A\n    type: USER\n    permissions: [\n      READ,   # r\n    ]\n');
  });

  it('refuses a state that adds access', () => {
    const next = entries();
    next[1].permissions = ['ADMIN', 'READ'];
    expect(() => rewriteManifest(QUEUE, { permissions: next })).toThrow(ManifestRewriteError);
  });
});
