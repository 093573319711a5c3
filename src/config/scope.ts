// `scope:` of steward.yaml (or of one instance under `instances:`) → the run's Scope: per kind
// with a scope input, inline ids or a list file, `all` (its listing, with `exclude` globs), or
// paths per file-set id; each id checked where it is written (a bad one is file:line:column).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ScheduleFilter } from '../api/types.js';
import { addProblems, InputError, type InputProblem } from '../core/problem.js';
import { uncontainedPath } from '../io/contained-path.js';
import { readInputFileSync } from '../io/input-file.js';
import { keyLocationAt, type YamlSource } from '../io/yaml-source.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import type { Discovery, Scope } from '../resources/types.js';

export type IdList = (string | number)[] | { file: string };
/** A `scope:` block as written. */
export type ScopeEntries = Record<string, IdList | 'all' | { all: boolean; ids?: IdList; exclude?: string[] } | Record<string, string[] | { file: string }>>;

export interface ScopeContext {
  baseDir: string;
  root: string;
  src: YamlSource | null;
  problems: InputProblem[];
  /** Every list file read (the evidence pack records them). */
  listFiles: Set<string>;
  at(path: (string | number)[], message: string): InputProblem;
  shown(file: string): string;
}

/** `{ all: true, ids?, exclude? }` in a scope list's place. */
const isDiscovery = (v: unknown): v is { all: boolean; ids?: IdList; exclude?: string[] } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'all' in v;

/** Lines of a list file: trimmed, blank lines and `#` comments skipped; each with its line number. */
function readListFile(file: string, displayed: string): { value: string; line: number }[] {
  return readInputFileSync(file, displayed, 'id list')
    .split(/\r?\n/)
    .map((l, i) => ({ value: l.replace(/#.*$/, '').trim(), line: i + 1 }))
    .filter((l) => l.value !== '');
}

/** Ids the API paths cannot carry (`GET /datasets/..` is another endpoint): refused at load. */
export function badScopeId(id: string): string | null {
  if (id.trim() === '') return 'an id cannot be empty';
  // NUL and other control characters are no part of an id (and would end up in request paths).
  if (/[\u0000-\u001f\u007f]/.test(id)) return 'an id cannot hold control characters';
  if (id === '.' || id === '..') return `"${id}" is not an id (it would change the request path)`;
  return null;
}

/** The Scope of `entries`, written at `prefix` (`['scope']`, or `['instances', 'prod', 'scope']`). */
export function resolveScope(entries: ScopeEntries | undefined, prefix: (string | number)[], ctx: ScopeContext, scheduleFilter?: ScheduleFilter): Scope {
  const { baseDir, root, src, problems, listFiles, at, shown } = ctx;
  const label = (where: (string | number)[]) => where.join('.');
  const listOrFile = (value: IdList | undefined, where: (string | number)[]): string[] => {
    if (value === undefined) return [];
    const ids: string[] = [];
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        const bad = badScopeId(String(v));
        if (bad) problems.push(at([...where, i], `${label(where)}: ${bad}`));
        ids.push(String(v));
      });
      return ids;
    }
    const listFile = path.resolve(baseDir, value.file);
    const refused = uncontainedPath(value.file, baseDir, root);
    if (refused) {
      problems.push(at([...where, 'file'], `${label(where)}.file: ${refused}`));
      return [];
    }
    if (!existsSync(listFile)) {
      problems.push(at([...where, 'file'], `file not found: ${shown(listFile)}`));
      return [];
    }
    let lines: { value: string; line: number }[];
    try {
      lines = readListFile(listFile, shown(listFile));
      listFiles.add(listFile);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      addProblems(problems, e.problems);
      return [];
    }
    for (const { value: id, line } of lines) {
      const bad = badScopeId(id);
      if (bad) problems.push({ file: shown(listFile), line, column: 1, message: `${label(where)}: ${bad}` });
      ids.push(id);
    }
    return ids;
  };
  // Paths per set id (file sets): each set id checked where it is written.
  const pathsPerSet = (key: string, value: Record<string, string[] | { file: string }> = {}) => {
    const sets: Record<string, string[]> = {};
    for (const [id, paths] of Object.entries(value)) {
      const bad = badScopeId(id);
      if (bad) problems.push(src ? { ...keyLocationAt(src, [...prefix, key, id]), message: `${label([...prefix, key])}: ${bad}` } : at([], bad));
      sets[id] = listOrFile(paths, [...prefix, key, id]);
    }
    return sets;
  };
  // One list per kind that has a scope input, in registry order; `all` asks for its listing.
  const ids: Record<string, string[]> = {};
  const pathLists: Record<string, Record<string, string[]>> = {};
  const discover: Record<string, Discovery> = {};
  for (const { inputs } of Object.values(RESOURCE_KINDS)) {
    const input = inputs.scope;
    if (!input) continue;
    const raw = entries?.[input.key];
    const all = raw === 'all' || (isDiscovery(raw) && raw.all === true);
    if (all) discover[input.key] = { exclude: isDiscovery(raw) ? (raw.exclude ?? []) : [] };
    const value = isDiscovery(raw) ? raw.ids : raw === 'all' ? undefined : raw;
    if (input.shape === 'ids') ids[input.key] = [...new Set(listOrFile(value as IdList | undefined, [...prefix, input.key]))];
    else pathLists[input.key] = pathsPerSet(input.key, (all ? undefined : value) as Record<string, string[] | { file: string }> | undefined);
  }
  return { ids, paths: pathLists, discover, scheduleFilter };
}
