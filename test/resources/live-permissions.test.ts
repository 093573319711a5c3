// Declared against live permissions of queues and data files: each principal's difference said
// exactly (what it gained outside the repository, what it lost), and the write that restores
// only narrows: a grant the manifest has and live lacks is reported, never sent.
import { describe, expect, it } from 'vitest';
import type { DataFilePermissions, QueuePermissionEntry } from '../../src/api/types.js';
import { dataFileDrift, narrowingDataFileBody, narrowingQueueBody, normaliseQueuePermissions, queueDrift } from '../../src/resources/live-permissions.js';

const entry = (type: 'USER' | 'GROUP', id: string, permissions: string[], name: string | null = `${type.toLowerCase()} ${id}`) =>
  ({ id, name, type, permissions }) as unknown as QueuePermissionEntry;

describe('queue permissions', () => {
  it('reads the grouped answer as write entries, users first, names null where the read has none', () => {
    const read = { GROUP: [{ id: '5', name: 'Ops', permissions: ['ADMIN'] }], USER: [{ id: '7', permissions: ['READ', 'WRITE'] }] };
    expect(normaliseQueuePermissions(read as never)).toEqual([
      { id: '7', name: null, type: 'USER', permissions: ['READ', 'WRITE'] },
      { id: '5', name: 'Ops', type: 'GROUP', permissions: ['ADMIN'] },
    ]);
    expect(normaliseQueuePermissions({} as never)).toEqual([]);
  });

  it('says per principal what it gained and lost outside the repository, and what matches', () => {
    const declared = [entry('USER', '1', ['READ']), entry('USER', '2', ['READ', 'WRITE']), entry('GROUP', '3', ['READ']), entry('USER', '4', ['ADMIN'], null), entry('USER', '6', [])];
    const live = [entry('USER', '1', ['READ']), entry('USER', '2', ['READ', 'ADMIN']), entry('GROUP', '5', ['ADMIN'], null), entry('USER', '4', []), entry('USER', '6', ['WRITE'], 'Six')];
    expect(queueDrift(declared, live)).toEqual([
      { type: 'USER', id: '1', name: 'user 1', matches: true, gained: [], lost: [], description: 'USER 1 (user 1) matches' },
      { type: 'USER', id: '2', name: 'user 2', matches: false, gained: ['ADMIN'], lost: ['WRITE'], description: 'USER 2 (user 2) holds ADMIN the manifest does not grant and lacks WRITE the manifest grants' },
      { type: 'GROUP', id: '3', name: 'group 3', matches: false, gained: [], lost: ['READ'], description: 'GROUP 3 (group 3) was removed outside the repository (declared READ)' },
      // The manifest's name first, the live one where it has none.
      { type: 'USER', id: '4', name: 'user 4', matches: false, gained: [], lost: ['ADMIN'], description: 'USER 4 (user 4) was removed outside the repository (declared ADMIN)' },
      { type: 'USER', id: '6', name: 'user 6', matches: false, gained: ['WRITE'], lost: [], description: 'USER 6 (user 6) was added outside the repository with WRITE' },
      { type: 'GROUP', id: '5', name: null, matches: false, gained: ['ADMIN'], lost: [], description: 'GROUP 5 was added outside the repository with ADMIN' },
    ]);
  });

  it('a principal that only gained, or only lost, while keeping a grant says just that part', () => {
    const [gainedOnly, lostOnly] = queueDrift([entry('USER', '1', ['READ']), entry('USER', '2', ['READ', 'WRITE'])], [entry('USER', '1', ['READ', 'WRITE']), entry('USER', '2', ['READ'])]);
    expect(gainedOnly!.description).toBe('USER 1 (user 1) holds WRITE the manifest does not grant');
    expect(lostOnly!.description).toBe('USER 2 (user 2) lacks WRITE the manifest grants');
    // Granted nothing on either side (an emptied entry): a match, not an addition of nothing.
    expect(queueDrift([entry('USER', '7', [])], [entry('USER', '7', [], null)])).toEqual([{ type: 'USER', id: '7', name: 'user 7', matches: true, gained: [], lost: [], description: 'USER 7 (user 7) matches' }]);
  });

  it('the narrowing write keeps every live entry, each with only what both grant, named as the manifest names it', () => {
    const declared = [entry('USER', '1', ['READ'], 'Declared One'), entry('GROUP', '3', ['READ', 'ADMIN'])];
    const live = [entry('USER', '1', ['READ', 'ADMIN'], 'Live One'), entry('GROUP', '3', ['READ']), entry('USER', '9', ['ADMIN'], 'Nine'), entry('USER', '8', ['WRITE'], null)];
    expect(narrowingQueueBody(declared, live)).toEqual({
      body: [
        { id: '1', name: 'Declared One', type: 'USER', permissions: ['READ'] },
        // ADMIN is declared and not held: the write never adds it.
        { id: '3', name: 'group 3', type: 'GROUP', permissions: ['READ'] },
        { id: '9', name: 'Nine', type: 'USER', permissions: [] },
        { id: '8', name: '', type: 'USER', permissions: [] },
      ],
      unnamed: ['USER 8'],
    });
  });
});

const files = (publicAccess: boolean, entries: [string, string, string][]): DataFilePermissions => ({ publicAccess, entries: entries.map(([entityId, grant, pass]) => ({ entityId, grant, pass })) });

describe('data file permissions', () => {
  it('compares the public flag and each entity: changed, granted and removed said apart, only a removal widening', () => {
    const declared = files(false, [['u1', 'READ', 'NONE'], ['u2', 'READ', 'NONE'], ['u3', 'WRITE', 'READ']]);
    const live = files(true, [['u1', 'READ', 'NONE'], ['u2', 'WRITE', 'NONE'], ['u4', 'READ', 'READ']]);
    expect(dataFileDrift(declared, live)).toEqual([
      { id: 'publicAccess', matches: false, widens: false, description: 'publicAccess is true on the instance, false in the manifest' },
      { id: 'u1', matches: true, widens: false, description: 'entity u1 matches' },
      { id: 'u2', matches: false, widens: false, description: 'entity u2 holds WRITE/NONE on the instance, READ/NONE in the manifest' },
      { id: 'u3', matches: false, widens: true, description: 'entity u3 was removed outside the repository (declared WRITE)' },
      { id: 'u4', matches: false, widens: false, description: 'entity u4 was granted READ outside the repository' },
    ]);
  });

  it('a file made private outside the repository widens when restored; the same flag matches', () => {
    expect(dataFileDrift(files(true, []), files(false, []))).toEqual([{ id: 'publicAccess', matches: false, widens: true, description: 'publicAccess is false on the instance, true in the manifest' }]);
    expect(dataFileDrift(files(true, []), files(true, []))).toEqual([{ id: 'publicAccess', matches: true, widens: false, description: 'publicAccess matches' }]);
    // An entry differing only in its pass is a change.
    expect(dataFileDrift(files(false, [['u1', 'READ', 'NONE']]), files(false, [['u1', 'READ', 'READ']]))[1]).toMatchObject({ matches: false, widens: false });
  });

  it('the narrowing write is public only where both are, and keeps only the live entries the manifest declares as they are', () => {
    const declared = files(true, [['u1', 'READ', 'NONE'], ['u2', 'READ', 'NONE']]);
    const live = files(true, [['u1', 'READ', 'NONE'], ['u2', 'WRITE', 'NONE'], ['u4', 'READ', 'READ']]);
    expect(narrowingDataFileBody(declared, live)).toEqual(files(true, [['u1', 'READ', 'NONE']]));
    expect(narrowingDataFileBody(files(false, []), files(true, [['u1', 'READ', 'NONE']]))).toEqual(files(false, []));
    expect(narrowingDataFileBody(files(true, []), files(false, [])).publicAccess).toBe(false);
  });
});
