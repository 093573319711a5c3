// Loads the CLI's chunks (CommonJS, written by scripts/build.mjs) with V8's code cache: the code
// compiled by a run's first start, functions it called included, is kept on disk and read back by
// the next start of the same command, which then compiles almost nothing. Node's own compile
// cache keeps only what is compiled as a module loads, so every function a run calls was compiled
// again on every start (~50 ms of `check --from` on Node 24; Node 20 has no such cache for ES
// modules). A chunk loads when the program first requires it, as the ES module build did.
// Only Node's built-ins here: the entry loads this file before the program.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { debuglog } from 'node:util';
import vm from 'node:vm';

/** What a chunk's code is wrapped in: CommonJS's names, and `import.meta.url` as the build defines it. */
const WRAPPER = ['exports', 'require', 'module', '__filename', '__dirname', '__steward_url'];

/** Days after which kept code of another Node version, saved to last then, is removed. */
const STALE_DAYS = 90;

/** Age after which a `.partial` file is one a killed start left, not one being written. */
const PARTIAL_MS = 3_600_000;

/** A chunk's file name, as the chunks require each other (`require("./chunk-AB12CD34.cjs")`). */
const CHUNK_NAME = /^[\w-]+\.cjs$/;

/**
 * How a chunk's compiled code was had: from the cache (`hit`: this command's; `shared`: another
 * command's, until this one keeps its own), compiled (none kept, or V8 refused it), or with the cache off.
 */
export type CacheUse = 'hit' | 'shared' | 'miss' | 'rejected' | 'off';

export interface ChunkLoader {
  /** The chunk's exports, loading it (and what it requires) the first time. */
  require(name: string): Record<string, unknown>;
  /** Each chunk loaded so far, in load order, and how its code was had. */
  loaded(): { name: string; cache: CacheUse }[];
  /**
   * Keeps the compiled code of every chunk that had none in the cache, with what this run
   * compiled in it, from the command's second start on (its first leaves a marker: writing the
   * code costs a start ~10-20 ms, lost where a machine runs the command once); removes kept code
   * of chunks the build no longer has. Returns how many it wrote. Never throws: a cache that
   * cannot be written costs time only.
   */
  saveCodeCache(): number;
}

/**
 * The cache's name for a start: the first word of its arguments (`check`, `validate`), so each
 * command's kept code is what that command ran. A wrong guess (an option's value) costs time only.
 */
export function cacheNameOf(args: readonly string[]): string {
  const word = args.find((a) => !a.startsWith('-'));
  return word && /^[a-z][a-z-]{0,31}$/.test(word) ? word : 'other';
}

// Stryker disable next-line StringLiteral: NODE_DEBUG is read at process start; test/cli/startup.test.ts spawns the binary to read the log
const debug = debuglog('steward');

/**
 * A loader of the chunks in `folder`. `cache`: the code cache's folder (cli/code-cache.ts) or null
 * (off); `name`: this start's cache name. Kept code is named by the chunk, the name and a hash of
 * the chunk's text, under the Node version and CPU: it is only ever read for that very text, by a
 * V8 that can use it (V8 refuses code of another version or flags, then it is compiled and kept anew).
 */
export function chunkLoader(folder: string, cache: string | null, name: string): ChunkLoader {
  const nodeRequire = createRequire(path.join(folder, 'index.cjs'));
  const modules = new Map<string, { exports: Record<string, unknown> }>();
  const uses: { name: string; cache: CacheUse }[] = [];
  const unsaved: { script: vm.Script; chunk: string }[] = [];
  /** Each loaded chunk's text, and (once asked) the hash that names its kept code. */
  const sources = new Map<string, string>();
  const hashes = new Map<string, string>();
  const kept = cache && path.join(cache, `${process.version}-${process.arch}`);
  /** The marker a command's first start leaves: code is kept from its second start on. */
  const started = `${name}.started`;
  let keptNames: string[] | undefined;

  const hashOf = (chunk: string): string => {
    let hash = hashes.get(chunk);
    // Stryker disable next-line ConditionalExpression: hashing again gives the same (time only)
    if (hash === undefined) {
      hash = createHash('sha256').update(sources.get(chunk)!).digest('hex').slice(0, 32);
      hashes.set(chunk, hash);
    }
    return hash;
  };
  /** The name of a loaded chunk's kept code for this command (`main.cjs.check.<hash>.bin`). */
  const keptNameOf = (chunk: string): string => `${chunk}.${name}.${hashOf(chunk)}.bin`;

  /**
   * The kept code for this chunk text: this command's, else another command's (a job that runs
   * `check`, then `merge`, starts the second warm for the chunks they share), else none.
   */
  const keptFileOf = (chunk: string): { file: string; own: boolean } | null => {
    if (!kept) return null;
    // Stryker disable next-line ConditionalExpression: listing the folder again per chunk finds the same (time only)
    if (keptNames === undefined) {
      try {
        keptNames = readdirSync(kept);
      } catch {
        // Stryker disable next-line ArrayDeclaration: no entry of a missing folder, or a made-up one, matches a chunk
        keptNames = [];
      }
    }
    // A chunk with no code kept at all is not hashed: a start on a fresh machine hashes nothing.
    // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: hashing anyway finds the same (time only)
    if (!keptNames.some((entry) => entry.startsWith(`${chunk}.`))) return null;
    const own = keptNameOf(chunk);
    if (keptNames.includes(own)) return { file: path.join(kept, own), own: true };
    // Stryker disable next-line StringLiteral: another chunk of the very same text (and hash) has the very same code
    const other = keptNames.find((entry) => entry.startsWith(`${chunk}.`) && entry.endsWith(`.${hashOf(chunk)}.bin`));
    return other ? { file: path.join(kept, other), own: false } : null;
  };

  const chunkRequire = (specifier: string): unknown => {
    if (specifier.startsWith('./')) return load(specifier.slice(2));
    return nodeRequire(specifier);
  };

  function load(chunk: string): Record<string, unknown> {
    const known = modules.get(chunk);
    if (known) return known.exports;
    if (!CHUNK_NAME.test(chunk)) throw new Error(`internal: no CLI chunk is named ${JSON.stringify(chunk)}`);
    const file = path.join(folder, chunk);
    const source = readFileSync(file, 'utf8');
    sources.set(chunk, source);
    const found = keptFileOf(chunk);
    let cachedData: Buffer | undefined;
    if (found) {
      try {
        cachedData = readFileSync(found.file);
      } catch {
        // removed since the folder was listed
      }
    }
    const script = new vm.Script(`(function (${WRAPPER.join(', ')}) {${source}\n})`, { filename: file, cachedData });
    const use: CacheUse = !kept ? 'off' : !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : found?.own ? 'hit' : 'shared';
    // Stryker disable next-line StringLiteral: the log (NODE_DEBUG) is read by test/cli/startup.test.ts
    debug('chunk %s: code cache %s', chunk, use);
    uses.push({ name: chunk, cache: use });
    if (kept && use !== 'hit') unsaved.push({ script, chunk });
    const module = { exports: {} as Record<string, unknown> };
    // Registered before it runs: a chunk required again while it loads sees its exports so far, as CommonJS does.
    modules.set(chunk, module);
    (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, chunkRequire, module, file, folder, pathToFileURL(file).href);
    return module.exports;
  }

  return {
    require: load,
    loaded: () => uses.map((u) => ({ ...u })),
    saveCodeCache(): number {
      // Stryker disable next-line ConditionalExpression: with nothing to write, pruning anyway finds nothing new (time only)
      if (!kept || unsaved.length === 0) return 0;
      let written = 0;
      try {
        mkdirSync(kept, { recursive: true, mode: 0o700 });
        // A command's first start (on a fresh machine, as in CI, often the only one) writes no code.
        if (!keptNames?.includes(started)) {
          // Stryker disable next-line StringLiteral: the marker's presence is all it says
          writeFileSync(path.join(kept, started), '', { mode: 0o600 });
          unsaved.length = 0;
          return 0;
        }
        for (const { script, chunk } of unsaved.splice(0)) {
          const file = path.join(kept, keptNameOf(chunk));
          // Written whole, then renamed: a start never reads half a file another one is writing.
          const partial = `${file}.${process.pid}.partial`;
          try {
            writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
            renameSync(partial, file);
          } catch (error) {
            // A disk that filled, a folder in the way: no half-written file stays behind.
            // Stryker disable next-line ObjectLiteral,BooleanLiteral: without `force`, a file never made throws, caught the same
            rmSync(partial, { force: true });
            throw error;
          }
          written++;
        }
        // Code of a chunk the build no longer has, or of an earlier text of one this run loaded.
        const chunks = new Set(readdirSync(folder));
        for (const entry of readdirSync(kept)) {
          // A file a start was killed while writing (one being written now is minutes younger).
          // Stryker disable next-line EqualityOperator: an hour to the millisecond
          if (/\.bin\.\d+\.partial$/.test(entry) && Date.now() - statSync(path.join(kept, entry)).mtimeMs > PARTIAL_MS) {
            // Stryker disable next-line ObjectLiteral,BooleanLiteral: `force` matters only when another start removed it first
            rmSync(path.join(kept, entry), { force: true });
          }
          const m = /^([\w-]+\.cjs)\.([a-z-]+)\.[0-9a-f]+\.bin$/.exec(entry);
          if (!m) continue;
          const [, chunk, cacheName] = m;
          const stale = !chunks.has(chunk) || (cacheName === name && sources.has(chunk) && keptNameOf(chunk) !== entry);
          // Stryker disable next-line ObjectLiteral,BooleanLiteral: `force` matters only when another start removed it first
          if (stale) rmSync(path.join(kept, entry), { force: true });
        }
        // Another Node's code unsaved for STALE_DAYS (one since upgraded): at worst, one cold start of it.
        for (const other of readdirSync(path.dirname(kept))) {
          const at = path.join(path.dirname(kept), other);
          // Stryker disable next-line ConditionalExpression,EqualityOperator: this Node's folder was just written to; 90 days to the millisecond
          if (at !== kept && /^v\d+\.\d+\.\d+-\w+$/.test(other) && Date.now() - statSync(at).mtimeMs > STALE_DAYS * 86_400_000) {
            // Stryker disable next-line BooleanLiteral: `force` matters only when another start removed it first
            rmSync(at, { recursive: true, force: true });
          }
        }
      } catch (error) {
        // Only logged (the one survivor of the cli mutation group, emptying this block: MUTATION.md).
        // Stryker disable next-line StringLiteral: NODE_DEBUG is read at process start
        debug('code cache not written: %s', (error as Error).message);
      }
      return written;
    },
  };
}
