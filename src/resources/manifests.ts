// Declared permission state (DESIGN §5): one queue or data file per YAML manifest, validated
// against a JSON Schema, with the position of every entry and value kept for findings and
// for in-place rewrites.
import { type OwnSchema, ownValidator } from '../core/own-validator.js';
import { closedSchema } from '../core/schema-id.js';
import { sha256 } from '../core/digest.js';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { isMap, isScalar, Scalar } from 'yaml';
import { QUEUE_PERMISSIONS } from '../api/vocabularies.js';
import { addProblems, InputError } from '../core/problem.js';
import { readInputFileSync } from '../io/input-file.js';
import type { InputProblem } from '../core/problem.js';
import { QUOTE_REFUSED_VALUE, schemaErrors, schemaProblems } from '../io/schema-problems.js';
import { collectPaths, keyLocationAt, locationOf, recallYamlSource, remembered, type YamlSource, yamlData } from '../io/yaml-source.js';
import type { ManifestSource } from './types.js';

// Ids are checked as written by readId below; by then a queue id is a string and a data-file
// id an integer.
const queueIdSchema = { type: 'string' };
const dataFileIdSchema = { type: 'integer' };

export const queueEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'type', 'permissions'],
  properties: {
    id: { type: 'string', minLength: 1 },
    name: { type: 'string' },
    type: { enum: ['USER', 'GROUP'] },
    // May be empty: an empty array removes the entity's permissions (api-spec §Resources).
    permissions: { type: 'array', uniqueItems: true, items: { enum: [...QUEUE_PERMISSIONS] } },
  },
};

export const queueManifestSchema = closedSchema('queue-manifest', 'steward queue permission manifest', {
  required: ['queue', 'permissions'],
  properties: {
    queue: queueIdSchema,
    permissions: { type: 'array', items: queueEntrySchema },
  },
});

export const dataFileEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['entityId', 'grant', 'pass'],
  properties: {
    // Optional: the platform's own reads and writes carry it, so a manifest copied from a read is valid.
    entityType: { enum: ['USER', 'GROUP'] },
    entityId: { type: 'string', minLength: 1 },
    grant: { type: 'string', minLength: 1 },
    pass: { type: 'string', minLength: 1 },
  },
};

export const dataFileManifestSchema = closedSchema('data-file-manifest', 'steward data-file permission manifest', {
  required: ['dataFile', 'publicAccess', 'entries'],
  properties: {
    dataFile: dataFileIdSchema,
    publicAccess: { type: 'boolean' },
    entries: { type: 'array', items: dataFileEntrySchema },
  },
});

/** A principal a page or card is shared with (cards and pages have no access levels). */
const sharePrincipalSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1 }, name: { type: 'string' } },
};

/** One page's or card's declared sharing: the users and groups it is shared with directly, nobody else. */
function sharingManifestSchema(key: 'page' | 'card') {
  return closedSchema(`${key}-sharing-manifest`, `steward ${key} sharing manifest`, {
    required: [key, 'users', 'groups'],
    properties: {
      [key]: { type: 'integer' },
      users: { type: 'array', items: sharePrincipalSchema, description: 'users the item is shared with directly' },
      groups: { type: 'array', items: sharePrincipalSchema, description: 'groups the item is shared with' },
    },
  });
}
export const pageSharingManifestSchema = sharingManifestSchema('page');
export const cardSharingManifestSchema = sharingManifestSchema('card');

export type ManifestKind = 'queue' | 'dataFile' | 'page' | 'card';

const MANIFEST_SCHEMAS: Record<ManifestKind, Record<string, unknown>> = {
  queue: queueManifestSchema,
  dataFile: dataFileManifestSchema,
  page: pageSharingManifestSchema,
  card: cardSharingManifestSchema,
};
export const manifestValidation = (kind: ManifestKind): OwnSchema => ({ schema: MANIFEST_SCHEMAS[kind], options: { allErrors: true, strict: true, verbose: true } });

const validators: Partial<Record<ManifestKind, ValidateFunction>> = {};
const validatorOf = (kind: ManifestKind): ValidateFunction => (validators[kind] ??= ownValidator(manifestValidation(kind)));
const ID_KEY: Record<ManifestKind, string> = { queue: 'queue', dataFile: 'dataFile', page: 'page', card: 'card' };

/**
 * `queue: 0123` names the queue "0123" (its text as written), not 123: queue ids are opaque
 * strings, and the text is what the author meant. (The alternative, refusing unquoted numeric
 * queue ids, would reject `queue: 12` that has always worked.)
 */
export const QUEUE_ID_FROM_SOURCE = true;

export interface Manifest {
  kind: ManifestKind;
  /** A queue's id as written (a string); a data file's id as a number (`dataFile: 42`). */
  id: string | number;
  data: Record<string, unknown>;
  source: ManifestSource;
}

/** Path as shown in output: relative to displayRoot, `/` separated. */
export function displayFile(file: string, displayRoot: string): string {
  const rel = path.relative(displayRoot, file);
  return (rel.startsWith('..') || path.isAbsolute(rel) ? file : rel).split(path.sep).join('/');
}

/** Parses one manifest's text. Problems point at file:line:column of the offending node. */
export function parseManifest(
  kind: ManifestKind,
  text: string,
  file: string,
): { manifest: Manifest | null; problems: InputProblem[] } {
  const source = recallYamlSource(text, file);
  const { data, problems: unread } = yamlData(source);
  if (unread.length > 0) return { manifest: null, problems: unread };
  let idProblem: InputProblem | null = null;
  if (isObject(data)) {
    const id = remembered(source, `id ${kind}`, () => readId(kind, source, data));
    if ('value' in id) data[ID_KEY[kind]] = id.value;
    idProblem = id.problem ?? null;
  }
  const found = schemaErrors(source, `the ${kind} manifest schema`, () => validatorOf(kind), data);
  if (found || idProblem) {
    // The id's own problem replaces the schema's word on it (`1e3` would otherwise pass as 1000).
    const errors = (found ?? []).filter((e) => !idProblem || e.instancePath !== `/${ID_KEY[kind]}`);
    const problems = [...(idProblem ? [idProblem] : []), ...schemaProblems(source, errors, QUOTE_REFUSED_VALUE)];
    return { manifest: null, problems };
  }
  const obj = data as Record<string, unknown>;
  let hash: string | undefined;
  return {
    manifest: {
      kind,
      id: obj[ID_KEY[kind]] as string | number,
      data: obj,
      source: {
        file,
        location: keyLocationAt(source, [ID_KEY[kind]]),
        paths: collectPaths(source),
        // Hashed when a plan first reads it: `validate` and `check` never do.
        get sha256() {
          hash ??= sha256(text);
          return hash;
        },
      },
    },
    problems: [],
  };
}

/**
 * The id as its text is written (`value`, to set in `data` in place of YAML's reading), or why it
 * cannot be used.
 * YAML would read `queue: 0123` as 123 and `dataFile: 1e3` as 1000, and a request would go to
 * another resource than the one the manifest names:
 * - a queue id is an opaque string: a plain scalar YAML reads as a number is taken as its
 *   source text (`0123` stays "0123"; QUEUE_ID_FROM_SOURCE). "", "." and ".." are refused: as a
 *   path segment of the request they would name another URL.
 * - a data-file id is an integer (api-spec: dataFileId): it must be written as digits, plain or
 *   quoted (`42`, `"42"`), and is read as that number.
 * Other shapes (a list, `true`) are left to the schema.
 */
function readId(kind: ManifestKind, source: YamlSource, data: Record<string, unknown>): { value?: string | number; problem?: InputProblem } {
  const key = ID_KEY[kind];
  const node = isMap(source.doc.contents) ? source.doc.contents.get(key, true) : undefined;
  if (!isScalar(node) || !node.range) return {};
  const plain = node.type === Scalar.PLAIN;
  const written = plain ? source.text.slice(node.range[0], node.range[1]) : String(node.value);
  const problem = (message: string) => ({ problem: { ...locationOf(source, node), message } });
  if (kind === 'queue') {
    const asWritten = QUEUE_ID_FROM_SOURCE && plain && typeof node.value === 'number';
    const id = asWritten ? written : data[key];
    if (id === '' || id === '.' || id === '..') {
      return problem(`queue id ${JSON.stringify(id)} cannot be used: it must name one queue in the request path`);
    }
    return asWritten ? { value: written } : {};
  }
  if (typeof node.value !== 'number' && typeof node.value !== 'string') return {};
  if (!/^[0-9]+$/.test(written)) return problem(`${key} must be written as digits, e.g. ${key}: 42 (got ${written})`);
  const id = Number(written);
  if (!Number.isSafeInteger(id)) return problem(`${key} ${written} is too large (at most ${Number.MAX_SAFE_INTEGER})`);
  return { value: id };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads and validates every manifest of one kind. Throws InputError listing all problems
 * (including two files declaring the same id), so nothing is sent when a manifest is bad.
 */
export async function loadManifests(kind: ManifestKind, files: string[], displayRoot: string): Promise<Manifest[]> {
  const problems: InputProblem[] = [];
  const manifests: Manifest[] = [];
  const byId = new Map<string, Manifest>();
  for (const file of [...files].sort()) {
    const shown = displayFile(file, displayRoot);
    // An unreadable file is one more problem: every manifest's problems are reported together.
    let text: string;
    try {
      text = readInputFileSync(file, shown, 'manifest');
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      addProblems(problems, err.problems);
      continue;
    }
    const result = parseManifest(kind, text, shown);
    addProblems(problems, result.problems);
    if (!result.manifest) continue;
    const key = String(result.manifest.id);
    const previous = byId.get(key);
    if (previous) {
      const at = previous.source.location;
      problems.push({
        ...result.manifest.source.location,
        message: `${kind} ${key} is already declared in ${at.file}:${at.line}:${at.column}`,
      });
      continue;
    }
    byId.set(key, result.manifest);
    manifests.push(result.manifest);
  }
  if (problems.length > 0) throw new InputError(problems);
  return manifests;
}
