// The committed Action bundle must equal a fresh build of the sources (DESIGN §11): the runner
// executes dist-action/index.js as committed, so a stale bundle would ship old code.
// `npm test` runs `npm run build` first, which rewrites the working-tree file; so the bundle is
// also compared with the one in the git commit (HEAD), as a check-dist CI job would.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ACTION_BUNDLE, actionBundleOptions, buildActionBundle, ROOT } from '../../scripts/action-bundle.mjs';
import { ACTION_PACK_FILE, builtinPackJson } from '../../src/library/builtin-pack.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';

const STALE = 'dist-action/index.js is stale: run `npm run build` and commit dist-action/index.js';

/** `file` as committed in HEAD, or null outside a git checkout (e.g. an npm tarball). */
function committed(file: string): string | null {
  try {
    return execFileSync('git', ['show', `HEAD:${file}`], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
}

let fresh: string;
beforeAll(async () => {
  fresh = await buildActionBundle({ write: false });
});

describe('dist-action/index.js', () => {
  test('the working-tree file equals a fresh build with the options of scripts/action-bundle.mjs', () => {
    const onDisk = readFileSync(join(ROOT, ACTION_BUNDLE), 'utf8');
    expect(onDisk === fresh, STALE).toBe(true);
  });

  test('the committed file equals a fresh build', (ctx) => {
    const inHead = committed(ACTION_BUNDLE);
    if (inHead === null) ctx.skip();
    expect(inHead === fresh, STALE).toBe(true);
  });

  test('is self-contained and deterministic', async () => {
    expect(actionBundleOptions).toMatchObject({ bundle: true, packages: 'bundle', platform: 'node', format: 'esm' });
    // No import of an installed package survives: only Node builtins.
    const imports = [...fresh.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((spec) => !isBuiltin(spec))).toEqual([]);
    // No machine-specific absolute paths (the repository root of this checkout).
    expect(fresh.includes(ROOT)).toBe(false);
    expect(await buildActionBundle({ write: false })).toBe(fresh);
  });

  test('carries no emulator: none of src/sandbox is in the bundle', () => {
    // Names only the sandbox defines; the library reaches none of it (test/architecture).
    for (const name of ['startSandbox', 'generateState', 'PLANTED_QUEUES', 'FaultInjector', 'steward sandbox listening']) {
      expect(fresh.includes(name), name).toBe(false);
    }
    // The CLI build does start a sandbox (--sandbox): the same check sees the names where they are.
    // (dist/cli.js is split: the program is in its chunks.)
    const chunks = readdirSync(join(ROOT, 'dist/cli-chunks')).map((f) => join(ROOT, 'dist/cli-chunks', f));
    const cli = [join(ROOT, 'dist/cli.js'), ...chunks].map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const name of ['startSandbox', 'generateState', 'PLANTED_QUEUES', 'FaultInjector']) expect(cli.includes(name), name).toBe(true);
  });
});

describe('dist-action/builtin-policies.json', () => {
  // The runner gets no dist/: the Action reads the pack the build parsed from this committed copy.
  const shipped = () =>
    readdirSync(join(ROOT, 'policies'))
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((name) => ({ name, text: readFileSync(join(ROOT, 'policies', name), 'utf8') }));
  const STALE_PACK = `${ACTION_PACK_FILE} is stale: run \`npm run build\` and commit it`;

  test('the working-tree and the committed file equal the pack a fresh build writes from policies/', async (ctx) => {
    const pack = await builtinPackJson(shipped(), RESOURCE_KINDS);
    expect(readFileSync(join(ROOT, ACTION_PACK_FILE), 'utf8') === pack, STALE_PACK).toBe(true);
    const inHead = committed(ACTION_PACK_FILE);
    if (inHead === null) ctx.skip();
    expect(inHead === pack, STALE_PACK).toBe(true);
  });
});
