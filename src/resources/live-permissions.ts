// Declared versus live permissions, for queues and data files: both normalised to the shape the
// write bodies use, then compared entry by entry. A field the manifest leaves out is no
// difference; an empty permission list is the same as no entry (that is how one is removed).
import type { DataFilePermissionEntry, DataFilePermissions, QueuePermissionEntry, QueuePermissionsRead } from '../api/types.js';
import type { FixKind } from './types.js';

/** `{USER: [...], GROUP: [...]}` → entries as the POST body has them (names null where the read has none). */
export function normaliseQueuePermissions(read: QueuePermissionsRead): QueuePermissionEntry[] {
  const of = (type: 'USER' | 'GROUP') =>
    (read[type] ?? []).map((e) => ({ id: e.id, name: e.name ?? null, type, permissions: [...e.permissions] }) as unknown as QueuePermissionEntry);
  return [...of('USER'), ...of('GROUP')];
}

/** One principal compared: `matches` false when live and declared differ; what was gained and lost outside the repository. */
export interface QueueDrift {
  type: string;
  id: string;
  name: string | null;
  matches: boolean;
  /** Live has these and the manifest does not (restoring takes them away: narrows). */
  gained: string[];
  /** The manifest has these and live does not (restoring would add them: widens, never applied). */
  lost: string[];
  description: string;
}

const keyOf = (e: { type: string; id: string }) => `${e.type}:${e.id}`;

export function queueDrift(declared: QueuePermissionEntry[], live: QueuePermissionEntry[]): QueueDrift[] {
  const d = new Map(declared.map((e) => [keyOf(e), e]));
  const l = new Map(live.map((e) => [keyOf(e), e]));
  const out: QueueDrift[] = [];
  for (const key of new Set([...d.keys(), ...l.keys()])) {
    const dec = d.get(key);
    const liv = l.get(key);
    const has = new Set<string>(liv?.permissions ?? []);
    const want = new Set<string>(dec?.permissions ?? []);
    const gained = [...has].filter((p) => !want.has(p));
    const lost = [...want].filter((p) => !has.has(p));
    const e = (dec ?? liv)!;
    const name = (dec?.name as string | null | undefined) ?? (liv?.name as string | null | undefined) ?? null;
    const who = `${e.type} ${e.id}${name ? ` (${name})` : ''}`;
    const parts = [gained.length ? `holds ${gained.join(', ')} the manifest does not grant` : '', lost.length ? `lacks ${lost.join(', ')} the manifest grants` : ''].filter(Boolean);
    const matches = gained.length === 0 && lost.length === 0;
    const description = matches
      ? `${who} matches`
      : !dec || want.size === 0
        ? `${who} was added outside the repository with ${gained.join(', ')}`
        : !liv || has.size === 0
          ? `${who} was removed outside the repository (declared ${lost.join(', ')})`
          : `${who} ${parts.join(' and ')}`;
    out.push({ type: e.type, id: e.id, name, matches, gained, lost, description });
  }
  return out;
}

/**
 * The write that takes live back toward declared only where that narrows: the whole live list,
 * each entry keeping what both grant (an undeclared one is sent with `permissions: []`), named
 * as the manifest names it. Right whether the platform replaces the list or sets each entity
 * it is sent (its removal semantics are not shown publicly), and `name` is required by the
 * write: an entry no manifest names cannot be sent, so `unnamed` lists those instead.
 */
export function narrowingQueueBody(declared: QueuePermissionEntry[], live: QueuePermissionEntry[]): { body: QueuePermissionEntry[]; unnamed: string[] } {
  const d = new Map(declared.map((e) => [keyOf(e), e]));
  const unnamed: string[] = [];
  const body = live.map((e) => {
    const dec = d.get(keyOf(e));
    const want = new Set<string>(dec?.permissions ?? []);
    const name = (dec?.name as string | null | undefined) || (e.name as string | null | undefined) || null;
    if (name === null) unnamed.push(`${e.type} ${e.id}`);
    return { id: e.id, name: name ?? '', type: e.type, permissions: e.permissions.filter((p) => want.has(p)) } as QueuePermissionEntry;
  });
  return { body, unnamed };
}

/** One data-file difference: the public flag, or one entity's entry. */
export interface DataFileDrift {
  id: string;
  matches: boolean;
  /** Restoring the declared state here would grant more: reported, never applied. */
  widens: boolean;
  description: string;
}

const entryKey = (e: DataFilePermissionEntry) => JSON.stringify([e.entityId, e.grant, e.pass]);

export function dataFileDrift(declared: DataFilePermissions, live: DataFilePermissions): DataFileDrift[] {
  const out: DataFileDrift[] = [];
  const pub = declared.publicAccess === live.publicAccess;
  out.push({
    id: 'publicAccess',
    matches: pub,
    widens: !pub && declared.publicAccess,
    description: pub ? 'publicAccess matches' : `publicAccess is ${live.publicAccess} on the instance, ${declared.publicAccess} in the manifest`,
  });
  const d = new Map(declared.entries.map((e) => [e.entityId, e]));
  const l = new Map(live.entries.map((e) => [e.entityId, e]));
  for (const id of new Set([...d.keys(), ...l.keys()])) {
    const dec = d.get(id);
    const liv = l.get(id);
    const matches = Boolean(dec && liv && entryKey(dec) === entryKey(liv));
    const description = matches
      ? `entity ${id} matches`
      : !dec
        ? `entity ${id} was granted ${liv!.grant} outside the repository`
        : !liv
          ? `entity ${id} was removed outside the repository (declared ${dec.grant})`
          : `entity ${id} holds ${liv.grant}/${liv.pass} on the instance, ${dec.grant}/${dec.pass} in the manifest`;
    // A changed entry is narrowed by removing it (the declared grant is not re-granted): only a removed one widens.
    out.push({ id, matches, widens: Boolean(dec) && !liv, description });
  }
  return out;
}

/** The PUT that narrows live toward declared: public only if both are, and only the live entries the manifest declares as they are. */
export function narrowingDataFileBody(declared: DataFilePermissions, live: DataFilePermissions): DataFilePermissions {
  const d = new Set(declared.entries.map(entryKey));
  return { publicAccess: live.publicAccess && declared.publicAccess, entries: live.entries.filter((e) => d.has(entryKey(e))) };
}

/**
 * The `restore` fix of a declared kind judged against its live state: the write (`request`) takes
 * away only what the live state grants beyond the manifest; `refusal` names what would widen.
 */
export function restoreFix(what: string, warning: string, fix: Pick<FixKind, 'refusal' | 'request'>): FixKind {
  return {
    name: 'restore',
    schema: { const: true, description: `take away what the ${what}'s live state grants beyond its manifest` },
    perItem: true,
    reads: ['live', 'drift'],
    warning,
    apply: (doc) => ({ ...doc }),
    ...fix,
  };
}
