// The built-in pack as the build parsed it (dist/builtin-policies.json, and its committed twin
// dist-action/builtin-policies.json for the Action, written by scripts/build.mjs from
// library/builtin-pack.ts): every command reads the 46 shipped policies,
// and parsing their YAML with positions and checking it against the policy schema cost ~35 ms of
// each start. A file is taken from it only when its text is the one the build parsed and the
// run's kinds give the same policy schema; anything else (an edited file, a plugin kind) is
// parsed as any policy file is. Texts are compared, not digests: no hash module loads for it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ownSchemaKey } from '../core/own-validator.js';
import { addKnownAsts } from './cel.js';
import type { KnownAst } from './known-ast.js';
import { type KindRegistry, policyValidation } from './schema.js';
import type { PolicyDefinition } from './types.js';

/** Where the build writes the parsed pack, from the package's folder. */
export const BUILTIN_PACK_FILE = 'dist/builtin-policies.json';

/**
 * The same pack beside the Action's bundle, committed with it: a runner gets the repository's
 * files (no dist/), and without it every run parsed the pack again (~100 ms of CPU on Node 24).
 */
export const ACTION_PACK_FILE = 'dist-action/builtin-policies.json';

/** The file every location of the pack names, replaced by the path the run shows. */
export const PACK_FILE_MARK = '\u0000';

/** A location's file as the pack's JSON text holds it. */
const MARKED_FILE = `"file":${JSON.stringify(PACK_FILE_MARK)}`;

export interface ParsedPack {
  /** The policy schema the pack was checked against (its ownSchemaKey). */
  schema: string;
  /** File name → the text the build parsed and its policies as JSON (parsed only for the file read). */
  files: Record<string, { text: string; policies: string }>;
  /** Every expression of the pack's policies → its AST, and the CEL engine's function names (cel.ts `knownAstsOf`). */
  known?: { asts: Record<string, KnownAst>; functions: string[] };
}

/** The policy schema's key for the kinds of a run (the schema built and written as JSON once per registry). */
export const policySchemaKey = (kinds: KindRegistry): string => ownSchemaKey(policyValidation(kinds));

let loaded: { dir: string; pack: ParsedPack | null } | undefined;

/**
 * The policies of built-in file `name` (shown as `display`) as the build parsed them, or
 * undefined when the file differs from what it parsed, the kinds give another policy schema, or
 * there is no parsed pack (a source checkout before its first build).
 */
export function builtinPolicies(packageDir: string, name: string, text: string, display: string, kinds: KindRegistry): PolicyDefinition[] | undefined {
  if (loaded?.dir !== packageDir) {
    const file = [BUILTIN_PACK_FILE, ACTION_PACK_FILE].map((f) => path.join(packageDir, f)).find((f) => existsSync(f));
    loaded = { dir: packageDir, pack: file ? (JSON.parse(readFileSync(file, 'utf8')) as ParsedPack) : null };
    // A parse depends on the text alone: the pack's serve any policy with the same expression
    // (a pack written before ASTs were kept this way has none).
    if (loaded.pack?.known) addKnownAsts(loaded.pack.known);
  }
  const entry = loaded.pack?.files[name];
  if (!entry || entry.text !== text || loaded.pack!.schema !== policySchemaKey(kinds)) return undefined;
  // Parsed for each read: a fresh copy, every location naming the file as this run shows it. The
  // mark is replaced in the text: a reviver made JSON.parse ~5x slower (~2 % of `validate`). A
  // quote inside a JSON string is escaped, so only a "file" key holding the mark reads so.
  const named = `"file":${JSON.stringify(display)}`;
  return JSON.parse(entry.policies.replaceAll(MARKED_FILE, () => named)) as PolicyDefinition[];
}
