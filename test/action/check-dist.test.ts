// The committed Action bundle must equal a fresh build of the sources (DESIGN §11): the runner
// executes dist-action/index.js as committed, so a stale bundle would ship old code.
import { readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ACTION_BUNDLE, actionBundleOptions, buildActionBundle, ROOT } from '../../scripts/action-bundle.mjs';

describe('dist-action/index.js', () => {
  test('equals a fresh build with the options of scripts/action-bundle.mjs', async () => {
    const fresh = await buildActionBundle({ write: false });
    const committed = readFileSync(join(ROOT, ACTION_BUNDLE), 'utf8');
    // On failure: run `npm run build` and commit dist-action/index.js.
    expect(committed === fresh, 'dist-action/index.js is stale: run `npm run build` and commit it').toBe(true);
  });

  test('is self-contained and deterministic', async () => {
    expect(actionBundleOptions).toMatchObject({ bundle: true, packages: 'bundle', platform: 'node', format: 'esm' });
    const text = await buildActionBundle({ write: false });
    // No import of an installed package survives: only Node builtins.
    const imports = [...text.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((spec) => !isBuiltin(spec))).toEqual([]);
    // No machine-specific absolute paths (the repository root of this checkout).
    expect(text.includes(ROOT)).toBe(false);
    expect(await buildActionBundle({ write: false })).toBe(text);
  });
});
