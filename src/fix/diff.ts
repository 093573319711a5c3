// Readable before → after of a declared document, one line per changed value or list entry,
// and the identity of list entries (a principal, not an index: removals shift indices).
import type { ResourceDocument } from '../resources/types.js';

type Obj = Record<string, unknown>;

/** Identity of a list item: `USER 7` for a queue entry, `entity 7` for a data-file entry. */
export function itemIdentity(item: unknown): string {
  if (isObject(item)) {
    if (item.id !== undefined) return `${item.type ?? ''} ${String(item.id)}`.trim();
    if (item.entityId !== undefined) return `entity ${String(item.entityId)}`;
  }
  return JSON.stringify(item);
}

/** The identity of the item at `permissions[2]`, or the path itself when it names no item. */
export function itemKeyAt(doc: ResourceDocument, path: string): string {
  const m = /^(\w+)\[(\d+)\]$/.exec(path);
  const list = m ? doc[m[1]] : undefined;
  if (!m || !Array.isArray(list) || Number(m[2]) >= list.length) return path;
  return `${m[1]}:${itemIdentity(list[Number(m[2])])}`;
}

/** `permissions[2] USER 15 (On-call Break Glass)`, for reasons and messages. */
export function describeItemAt(doc: ResourceDocument, path: string): string {
  const m = /^(\w+)\[(\d+)\]$/.exec(path);
  const list = m ? doc[m[1]] : undefined;
  if (!m || !Array.isArray(list) || Number(m[2]) >= list.length) return path;
  return `${path} ${entryLabel(list[Number(m[2])])}`;
}

export function describeDiff(before: ResourceDocument, after: ResourceDocument): string[] {
  const lines: string[] = [];
  for (const key of Object.keys(before)) {
    const a = before[key];
    const b = after[key];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    if (Array.isArray(a) && Array.isArray(b)) lines.push(...describeList(key, a, b));
    else lines.push(`${key}: ${show(a)} → ${show(b)}`);
  }
  return lines;
}

function describeList(key: string, before: unknown[], after: unknown[]): string[] {
  const lines: string[] = [];
  const left = after.map((item) => itemIdentity(item));
  before.forEach((item, i) => {
    const at = left.indexOf(itemIdentity(item));
    const label = `${key}[${i}] ${entryLabel(item)}`;
    if (at < 0) {
      lines.push(`${label}: removed (${summary(item)})`);
      return;
    }
    left[at] = '\u0000taken';
    const next = after[at];
    if (JSON.stringify(item) === JSON.stringify(next)) return;
    if (isObject(item) && isObject(next)) {
      for (const field of Object.keys(item)) {
        if (JSON.stringify(item[field]) !== JSON.stringify(next[field])) {
          lines.push(`${label} ${field}: ${show(item[field])} → ${show(next[field])}`);
        }
      }
    } else lines.push(`${label}: ${show(item)} → ${show(next)}`);
  });
  left.forEach((id, j) => {
    if (id !== '\u0000taken') lines.push(`${key}: added ${entryLabel(after[j])} (${summary(after[j])})`);
  });
  return lines;
}

function entryLabel(item: unknown): string {
  const id = itemIdentity(item);
  return isObject(item) && typeof item.name === 'string' ? `${id} (${item.name})` : id;
}

function summary(item: unknown): string {
  if (!isObject(item)) return show(item);
  if (Array.isArray(item.permissions)) return show(item.permissions);
  if (item.grant !== undefined) return `grant ${String(item.grant)}, pass ${String(item.pass)}`;
  return show(item);
}

function show(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ')}]`;
  return JSON.stringify(v);
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
