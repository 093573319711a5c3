// Declared permission state (DESIGN §5): one queue or data file per YAML manifest, validated
// against a JSON Schema, with the position of every entry and value kept for findings and
// for in-place rewrites.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { QUEUE_PERMISSIONS } from '../client/types.js';
import { InputError } from '../errors.js';
import { readInputFile } from '../input-file.js';
import type { InputProblem } from '../policy/types.js';
import { QUOTE_REFUSED_VALUE, schemaProblems } from '../yaml/schema-problems.js';
import { collectPaths, keyNodeAt, locationOf, parseYamlSource } from '../yaml/source.js';
import type { ManifestSource } from './types.js';

const idSchema = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] };

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

export const queueManifestSchema = {
  $id: 'steward/queue-manifest',
  type: 'object',
  additionalProperties: false,
  required: ['queue', 'permissions'],
  properties: {
    queue: idSchema,
    permissions: { type: 'array', items: queueEntrySchema },
  },
};

export const dataFileEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['entityId', 'grant', 'pass'],
  properties: {
    entityId: { type: 'string', minLength: 1 },
    grant: { type: 'string', minLength: 1 },
    pass: { type: 'string', minLength: 1 },
  },
};

export const dataFileManifestSchema = {
  $id: 'steward/data-file-manifest',
  type: 'object',
  additionalProperties: false,
  required: ['dataFile', 'publicAccess', 'entries'],
  properties: {
    dataFile: idSchema,
    publicAccess: { type: 'boolean' },
    entries: { type: 'array', items: dataFileEntrySchema },
  },
};

export type ManifestKind = 'queue' | 'dataFile';

const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });
const validators: Record<ManifestKind, ValidateFunction> = {
  queue: ajv.compile(queueManifestSchema),
  dataFile: ajv.compile(dataFileManifestSchema),
};
const ID_KEY: Record<ManifestKind, string> = { queue: 'queue', dataFile: 'dataFile' };

export interface Manifest {
  kind: ManifestKind;
  /** The id as written (`dataFile: 42` stays a number). */
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
  const source = parseYamlSource(text, file);
  if (source.problems.length > 0) return { manifest: null, problems: source.problems };
  const data = source.doc.toJS() as unknown;
  const validate = validators[kind];
  if (!validate(data)) return { manifest: null, problems: schemaProblems(source, validate.errors, QUOTE_REFUSED_VALUE) };
  const obj = data as Record<string, unknown>;
  return {
    manifest: {
      kind,
      id: obj[ID_KEY[kind]] as string | number,
      data: obj,
      source: {
        file,
        location: locationOf(source, keyNodeAt(source, [ID_KEY[kind]])),
        paths: collectPaths(source),
        sha256: createHash('sha256').update(text).digest('hex'),
      },
    },
    problems: [],
  };
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
    const text = await readInputFile(file, shown, 'manifest').catch((err: InputError) => {
      problems.push(...err.problems);
      return null;
    });
    if (text === null) continue;
    const result = parseManifest(kind, text, shown);
    problems.push(...result.problems);
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
