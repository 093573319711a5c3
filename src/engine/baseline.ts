// Baselines (DESIGN §7): today's fingerprints recorded once; later runs fail only on new ones.
// Each fingerprint is stored with what it was about (policy, resource, path, message), so a
// resolved entry can be named; files holding only fingerprints (older ones) are still read.
// A fingerprint does not name its instance (the same resource id on two instances is two
// resources), so the file lists each instance's fingerprints apart: a finding is known only when
// its own instance recorded it.
import { readFileSync } from 'node:fs';
import { DEFAULT_INSTANCE_NAME } from '../config/instances.js';
import { SecretSet } from '../core/redact.js';
import { schemaId } from '../core/schema-id.js';
import { decodeUtf8, fileError } from '../io/input-file.js';
import type { Finding, ResolvedBaselineEntry } from '../core/model.js';
import { jsonProblem, parseJsonAt } from '../io/json-source.js';
import { writeWholeSync } from '../io/write-whole.js';

/** What a recorded fingerprint was about. */
export interface BaselineEntry {
  policy: string;
  resource: { kind: string; id: string };
  path: string | null;
  message: string;
}

export interface BaselineFile {
  version: 1;
  createdAt: string;
  fingerprints: string[];
  /** Per fingerprint; absent or partial in a file written before entries were stored. */
  entries?: Record<string, BaselineEntry>;
  /**
   * Each instance's fingerprints, by its name (`default` for a config of one). Absent in a file
   * written before they were kept: such a file serves a run of one instance only.
   */
  instances?: Record<string, string[]>;
}

/**
 * The published schema of a baseline file (schema/baseline.schema.json), for editors and other
 * tools; `parseBaseline` checks the same shape and points at the offending value.
 */
export const baselineFileSchema = {
  $id: schemaId('baseline'),
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'steward baseline (steward check --write-baseline)',
  type: 'object',
  required: ['version', 'fingerprints'],
  properties: {
    version: { const: 1 },
    createdAt: { type: 'string' },
    fingerprints: { type: 'array', items: { type: 'string' } },
    instances: {
      type: 'object',
      description: 'Each instance\'s fingerprints, by its name (absent in files written before they were kept: those serve a run of one instance only).',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    entries: {
      type: 'object',
      description: 'What each fingerprint was about (absent in files written before entries were stored).',
      additionalProperties: {
        type: 'object',
        required: ['policy', 'resource', 'path', 'message'],
        properties: {
          policy: { type: 'string' },
          resource: {
            type: 'object',
            required: ['kind', 'id'],
            properties: { kind: { type: 'string' }, id: { type: 'string' } },
          },
          path: { type: ['string', 'null'] },
          message: { type: 'string' },
        },
      },
    },
  },
};

/** Violations (waived or not) are recorded; errors are not findings about the instance. */
function recorded(f: Finding): boolean {
  return f.status === 'violation' || f.status === 'waived';
}

/** The baseline of `findings`, each under its `instance` (`default` when it names none). */
export function createBaseline(findings: Finding[], now: Date): BaselineFile {
  const entries: Record<string, BaselineEntry> = {};
  const byInstance: Record<string, Set<string>> = {};
  for (const f of findings.filter(recorded)) {
    const name = f.instance ?? DEFAULT_INSTANCE_NAME;
    byInstance[name] ??= new Set();
    byInstance[name].add(f.fingerprint);
    entries[f.fingerprint] ??= {
      policy: f.policy,
      resource: { kind: f.resource.kind, id: f.resource.id },
      path: f.path,
      message: f.message,
    };
  }
  const fingerprints = Object.keys(entries).sort();
  return {
    version: 1,
    createdAt: now.toISOString(),
    fingerprints,
    instances: Object.fromEntries(Object.keys(byInstance).sort().map((name) => [name, [...byInstance[name]!].sort()])),
    entries: Object.fromEntries(fingerprints.map((fp) => [fp, entries[fp]])),
  };
}

/** Writes the baseline; a secret echoed into a message is redacted in every form (`secrets`). */
export async function writeBaseline(file: string, findings: Finding[], now: Date, secrets: SecretSet = new SecretSet()): Promise<BaselineFile> {
  const baseline = createBaseline(findings, now);
  writeWholeSync(file, secrets.redact(`${JSON.stringify(baseline, null, 2)}\n`));
  return baseline;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entryProblem(e: unknown): string | null {
  if (!isObject(e)) return 'must be an object { policy, resource, path, message }';
  if (typeof e.policy !== 'string') return '"policy" must be a string';
  if (!isObject(e.resource) || typeof e.resource.kind !== 'string' || typeof e.resource.id !== 'string') {
    return '"resource" must be { "kind": string, "id": string }';
  }
  if (e.path !== null && typeof e.path !== 'string') return '"path" must be a string or null';
  if (typeof e.message !== 'string') return '"message" must be a string';
  return null;
}

export function parseBaseline(text: string, displayPath: string): BaselineFile {
  const b = parseJsonAt(text, displayPath, 'baseline');
  const at = (path: (string | number)[], message: string) => jsonProblem(text, displayPath, path, message);
  if (!isObject(b) || b.version !== 1) throw at(['version'], 'baseline must be { "version": 1, ... }');
  if (!Array.isArray(b.fingerprints)) throw at(['fingerprints'], 'baseline "fingerprints" must be an array of strings');
  const bad = b.fingerprints.findIndex((f) => typeof f !== 'string');
  if (bad >= 0) throw at(['fingerprints', bad], 'baseline "fingerprints" must be an array of strings');
  const entries: Record<string, BaselineEntry> = {};
  if (b.entries !== undefined) {
    if (!isObject(b.entries)) throw at(['entries'], 'baseline "entries" must be an object keyed by fingerprint');
    for (const [fp, e] of Object.entries(b.entries)) {
      const problem = entryProblem(e);
      if (problem) throw at(['entries', fp], `baseline entry ${fp}: ${problem}`);
      entries[fp] = e as BaselineEntry;
    }
  }
  let instances: Record<string, string[]> | undefined;
  if (b.instances !== undefined) {
    if (!isObject(b.instances)) throw at(['instances'], 'baseline "instances" must be an object of fingerprint lists keyed by instance name');
    const all = new Set(b.fingerprints as string[]);
    instances = {};
    for (const [name, list] of Object.entries(b.instances)) {
      if (!Array.isArray(list)) throw at(['instances', name], `baseline instance ${name}: must be an array of fingerprints`);
      // Stryker disable next-line ConditionalExpression: a non-string is never in `all` either (the type check is TypeScript's)
      const odd = list.findIndex((f) => typeof f !== 'string' || !all.has(f));
      if (odd >= 0) throw at(['instances', name, odd], `baseline instance ${name}: every entry must be one of "fingerprints"`);
      instances[name] = list as string[];
    }
  }
  return { version: 1, createdAt: String(b.createdAt ?? ''), fingerprints: b.fingerprints as string[], entries, ...(instances ? { instances } : {}) };
}

export async function readBaseline(file: string, displayPath: string): Promise<BaselineFile> {
  let text: string;
  try {
    text = decodeUtf8(readFileSync(file), displayPath);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') {
      throw fileError(displayPath, `baseline file not found: create it with \`steward check --write-baseline ${displayPath}\``);
    }
    throw fileError(displayPath, `cannot read baseline: ${e.message}`);
  }
  return parseBaseline(text, displayPath);
}

/**
 * Each violation/waived finding of `instance` becomes new or known; that instance's baseline
 * entries not seen are resolved. An instance the file does not name has no known finding.
 */
export function compareBaseline(
  findings: Finding[],
  baseline: BaselineFile,
  instance: string,
): { findings: Finding[]; resolved: string[]; resolvedEntries: ResolvedBaselineEntry[] } {
  const known = new Set(baseline.instances ? (baseline.instances[instance] ?? []) : baseline.fingerprints);
  const seen = new Set<string>();
  const out = findings.map((f) => {
    if (!recorded(f)) return { ...f, baseline: null };
    seen.add(f.fingerprint);
    return { ...f, baseline: known.has(f.fingerprint) ? ('known' as const) : ('new' as const) };
  });
  const resolved = [...known].filter((fp) => !seen.has(fp)).sort();
  const resolvedEntries = resolved.map((fingerprint) => {
    const e = baseline.entries?.[fingerprint];
    return e ? { fingerprint, ...e, resource: { ...e.resource } } : { fingerprint };
  });
  return { findings: out, resolved, resolvedEntries };
}
