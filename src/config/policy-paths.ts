// Which policy files a config loads, and where each was named: `--policies` (relative to the
// cwd), else the file's `policies` entries (relative to the file; `builtin`, paths, or packs by
// name), else the built-in pack. Problems are collected, not thrown: loadConfig reports them all.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SourceLocation } from '../core/model.js';
import type { InputProblem } from '../core/problem.js';
import { uncontainedPath } from '../io/contained-path.js';
import { packName, resolvePack } from './packs.js';
import { BUILTIN_POLICIES, builtinPolicyDir } from './paths.js';
import type { Config } from './types.js';

/** What `policies` means when nothing names any: the built-in pack. */
export const DEFAULT_POLICIES = [BUILTIN_POLICIES];

/** The origin of policies named by `--policies` (a flag has no line). */
export const POLICIES_FLAG_ORIGIN: SourceLocation = { file: '--policies', line: 0, column: 0 };

interface PolicyPathsInput {
  flagged: string[] | undefined;
  written: string | string[] | undefined;
  cwd: string;
  baseDir: string;
  /** The project root files named by the config stay inside. */
  root: string;
  problems: InputProblem[];
  /** A problem at a path of the config file. */
  at(where: (string | number)[], message: string): InputProblem;
  locAt(where: (string | number)[]): SourceLocation;
  shown(file: string): string;
}

export function policyPaths(input: PolicyPathsInput): Pick<Config, 'policies' | 'policyOrigins' | 'policySources'> {
  const { flagged, written, cwd, baseDir, root, problems, at, locAt, shown } = input;
  const resolve = (p: string, dir: string) => (p === BUILTIN_POLICIES ? builtinPolicyDir() : path.resolve(dir, p));
  const policySources: Config['policySources'] = [];
  if (flagged && flagged.length > 0) {
    const policies = flagged.map((p) => resolve(p, cwd));
    for (const [i, p] of policies.entries()) {
      if (!existsSync(p)) problems.push({ file: '--policies', line: 0, column: 0, message: `not found: ${flagged[i]}` });
    }
    return { policies, policyOrigins: policies.map(() => POLICIES_FLAG_ORIGIN), policySources };
  }
  if (written === undefined) {
    return { policies: DEFAULT_POLICIES.map((p) => resolve(p, cwd)), policyOrigins: DEFAULT_POLICIES.map(() => null), policySources };
  }
  const list = Array.isArray(written) ? written : [written];
  const entryPath = (i: number) => (Array.isArray(written) ? ['policies', i] : ['policies']);
  const policies: string[] = [];
  const policyOrigins: SourceLocation[] = [];
  for (const [i, entry] of list.entries()) {
    // A pack by name brings in each of its paths, all placed at this entry and marked with its version.
    const pack = packName(entry);
    if (pack) {
      const resolved = resolvePack(pack, baseDir);
      if (typeof resolved === 'string') problems.push(at(entryPath(i), `policies: ${resolved}`));
      else {
        for (const p of resolved.paths) {
          policySources[policies.length] = resolved.source;
          policies.push(p);
          policyOrigins.push(locAt(entryPath(i)));
        }
      }
      continue;
    }
    const p = resolve(entry, baseDir);
    policies.push(p);
    policyOrigins.push(locAt(entryPath(i)));
    const refused = entry === BUILTIN_POLICIES ? null : uncontainedPath(entry, baseDir, root, 'file or folder');
    if (refused) problems.push(at(entryPath(i), `policies: ${refused}`));
    else if (!existsSync(p)) problems.push(at(entryPath(i), `policy path not found: ${shown(p)}`));
  }
  return { policies, policyOrigins, policySources };
}
