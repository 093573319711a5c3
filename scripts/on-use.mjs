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

/**
 * Ajv's class, required from `specifier` where own-validator.ts first compiles a schema at run
 * time (src/core/ajv-class.ts): `ajv` bundled beside it (the Action), or a CLI chunk of its own.
 */
export const ajvOnUseFrom = (specifier) =>
  onUse(
    'ajv-on-use',
    /[\\/]src[\\/]core[\\/]ajv-class\.ts$/,
    [
      ["import { Ajv } from 'ajv';", "import type { Ajv } from 'ajv';"],
      ['=> Ajv;', `=> require(${JSON.stringify(specifier)}).Ajv;`],
    ],
    'ts',
  );

/** Ajv's class, bundled, required at its first use. */
export const ajvOnUse = ajvOnUseFrom('ajv');

/** ofetch's Node entry, in node_modules. */
const OFETCH_ENTRY = /[\\/]node_modules[\\/]ofetch[\\/]dist[\\/]node\.mjs$/;

/** A line of ofetch's entry that takes names from its shared module (`import { c as createFetch } from './shared/ofetch.X.mjs';`). */
const OFETCH_SHARED_LINE = /^(?:import|export) \{[^}]*\} from '\.\/shared\/ofetch\.[\w-]+\.mjs';$/;

/**
 * ofetch as steward uses it, `createFetch` and `FetchError` alone: its Node entry also makes an
 * instance from the global fetch and Headers as it loads (a first read of `Headers` loads Node's
 * undici, ~26 ms of CPU on Node 24) and imports node-fetch-native (112 KB, node:https, node:zlib)
 * for Nodes without a global fetch. The client passes its own fetch and Headers (src/api/http.ts);
 * notify makes its instance from the globals when it sends (src/library/notify.ts).
 */
export const ofetchCreateOnly = {
  name: 'ofetch-create-only',
  setup(b) {
    b.onLoad({ filter: OFETCH_ENTRY }, (args) => {
      const shared = readFileSync(args.path, 'utf8').split('\n').filter((line) => OFETCH_SHARED_LINE.test(line));
      for (const name of ['createFetch', 'FetchError']) {
        if (!shared.some((line) => new RegExp(`\\bas ${name}\\b`).test(line))) throw new Error(`build: ${args.path} no longer takes ${name} from its shared module (scripts/on-use.mjs: ofetch-create-only)`);
      }
      return { contents: `${shared.join('\n')}\nexport { createFetch };\n`, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};
