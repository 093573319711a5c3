// Policy packs by name: a `policies:` entry `@scope/name` (or `npm:name`) is an installed npm
// package whose package.json names its policy files or folders in `steward.policies` (a path or
// a list, relative to the package). Found as Node finds a package: in `node_modules` of the
// config's folder, then of each folder above it (ESLint's shareable configs, Spectral's
// `extends`). Every policy it brings in records the package and its version.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

export interface PackSource {
  package: string;
  version: string;
}

export interface ResolvedPack {
  source: PackSource;
  /** Absolute policy files or folders of the package. */
  paths: string[];
}

const SCOPED = /^@[a-z0-9][a-z0-9._~-]*\/[a-z0-9][a-z0-9._~-]*$/;
const UNSCOPED = /^[a-z0-9][a-z0-9._~-]*$/;

/** The package name an entry names (`@scope/name`, or `npm:name`), or null for a path. */
export function packName(entry: string): string | null {
  if (SCOPED.test(entry)) return entry;
  if (entry.startsWith('npm:') && (UNSCOPED.test(entry.slice(4)) || SCOPED.test(entry.slice(4)))) return entry.slice(4);
  return null;
}

/** The pack `name` as installed for a config in `baseDir`; a string says why it cannot be used. */
export function resolvePack(name: string, baseDir: string): ResolvedPack | string {
  let root: string | null = null;
  for (let dir = path.resolve(baseDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(path.join(candidate, 'package.json'))) {
      root = realpathSync(candidate);
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  if (!root) return `package "${name}" is not installed (looked in node_modules from ${baseDir} up): install it with \`npm install --save-dev ${name}\``;
  let manifest: { name?: unknown; version?: unknown; steward?: { policies?: unknown } };
  try {
    manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  } catch (e) {
    return `package "${name}": its package.json cannot be read (${(e as Error).message})`;
  }
  const declared = manifest.steward?.policies;
  const list = typeof declared === 'string' ? [declared] : Array.isArray(declared) && declared.every((p) => typeof p === 'string') ? (declared as string[]) : null;
  if (!list || list.length === 0) return `package "${name}" is no steward policy pack: its package.json has no "steward": { "policies": … } naming its policy files or folders`;
  const paths: string[] = [];
  for (const p of list) {
    const full = path.resolve(root, p);
    const rel = path.relative(root, full);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return `package "${name}": steward.policies entry "${p}" is outside the package`;
    if (!existsSync(full)) return `package "${name}": steward.policies entry "${p}" does not exist`;
    paths.push(full);
  }
  return { source: { package: name, version: typeof manifest.version === 'string' ? manifest.version : '0.0.0' }, paths };
}
