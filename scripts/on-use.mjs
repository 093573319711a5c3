// esbuild plugins that move a module's load from its importer's start to its first use: the
// CLI's chunks (scripts/build.mjs) and the Action's bundle (scripts/action-bundle.mjs) load what a
// command never uses at no start. Each replaces exact text in one file, and the build fails if the
// file no longer says it (a new version of a dependency), so a saving cannot quietly go.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A plugin named `name` that loads the file `filter` matches with each `[text, replacement]` of
 * `edits` applied, as `loader` code.
 */
export function onUse(name, filter, edits, loader = 'js') {
  return {
    name,
    setup(b) {
      b.onLoad({ filter }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        for (const [from, to] of edits) {
          if (!text.includes(from)) throw new Error(`build: ${args.path} no longer says ${from} (scripts/on-use.mjs: ${name})`);
          text = text.replace(from, to);
        }
        return { contents: text, loader, resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** Ajv's class, required where own-validator.ts first compiles a schema at run time (src/core/ajv-class.ts). */
export const ajvOnUse = onUse(
  'ajv-on-use',
  /[\\/]src[\\/]core[\\/]ajv-class\.ts$/,
  [
    ["import { Ajv } from 'ajv';", "import type { Ajv } from 'ajv';"],
    ['=> Ajv;', "=> require('ajv').Ajv;"],
  ],
  'ts',
);
