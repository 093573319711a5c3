// Loads the CLI's chunks (CommonJS, written by scripts/build.mjs) with V8's code cache: the code
// compiled by a run's first start, functions it called included, is kept on disk and read back by
// the next start of the same command, which then compiles almost nothing. Node's own compile
// cache keeps only what is compiled as a module loads, so every function a run calls was compiled
// again on every start (~50 ms of `check --from` on Node 24; Node 20 has no such cache for ES
// modules). A chunk loads when the program first requires it, as the ES module build did.
// Only Node's built-ins here: the entry loads this file before the program.
import type { Script } from 'node:vm';
import { createRequire, fs, path, url, util, vm } from './builtins.js';
import { keepFile, pruneBuilds, removeLeftPartials, unsavedTooLong } from './code-cache.js';

const { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = fs;
const { pathToFileURL } = url;
const { debuglog } = util;

/** What a chunk's code is wrapped in: CommonJS's names, and `import.meta.url` as the build defines it. */
const WRAPPER = ['exports', 'require', 'module', '__filename', '__dirname', '__steward_url'];

/** A chunk's file name, as the chunks require each other (`require("./chunk-AB12CD34.cjs")`). */
const CHUNK_NAME = /^[\w-]+\.cjs$/;

/** The first line of a chunk's file: the build's hash of the code below it (chunkFile). */
const HEADER = '// steward chunk ';
const HEADER_HASH = new RegExp(`^${HEADER}([0-9a-f]{32})\n`);

/**
 * A file of kept code: `<chunk>.<cache name>.<key>.bin`. What earlier versions kept beside the
 * builds' folders (under the hash alone, or every build in one) goes whole (code-cache.ts pruneBuilds).
 */
const KEPT_FILE = /^([\w-]+\.cjs)\.([a-z-]+)\.[0-9a-f]{32}-\d+-\d+\.bin$/;

/** A chunk's CommonJS body as the function the loader calls (WRAPPER names its parameters). */
const wrapped = (body: string): string => `(function (${WRAPPER.join(', ')}) {${body}\n})`;

/**
 * A chunk's file as scripts/build.mjs writes it: the chunk's CommonJS `body` already wrapped in
 * the function the loader calls, under a first line naming that code by `sha256Hex` of it. A
 * start compiles the file as it is and names the code it keeps from that line: no wrapped copy
 * of ~2 MB of text, no hash of it (BENCHMARKS.md, start-up on 2026-11-27 16:40 UTC).
 */
export function chunkFile(body: string, sha256Hex: (text: string) => string): string {
  const code = wrapped(body);
  return `${HEADER}${sha256Hex(code).slice(0, 32)}\n${code}`;
}

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
  /** A loaded chunk's key (its code's hash, size and time), or null: the entry chunk's names the build. */
  keyOf(name: string): string | null;
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
 * (off); `name`: this start's cache name. Kept code is named by the chunk, the name and a key,
 * under the Node version and CPU and the build (the key of the first chunk loaded, the entry's):
 * it is only ever read for that very text, by a V8 that can use it (V8 refuses code of another
 * version or flags, then it is compiled and kept anew). The key is the build's hash of the
 * chunk's code (its first line) with the file's size and modification time: V8 itself checks
 * only a text's length, and an edited chunk (its first line unchanged) has another time. A file
 * without that line is compiled and its code never kept; an entry without it keeps nothing.
 */
export function chunkLoader(folder: string, cache: string | null, name: string): ChunkLoader {
  const nodeRequire = createRequire(path.join(folder, 'index.cjs'));
  const modules = new Map<string, { exports: Record<string, unknown> }>();
  const uses: { name: string; cache: CacheUse }[] = [];
  const unsaved: { script: Script; chunk: string }[] = [];
  /** Each loaded chunk's key (as chunkLoader's doc says), or null for a file without the build's first line. */
  const keys = new Map<string, string | null>();
  /** This Node's folder of builds, and this build's in it (named at the first load). */
  const nodeFolder = cache && path.join(cache, `${process.version}-${process.arch}`);
  let kept: string | null = null;
  /** The marker a command's first start leaves: code is kept from its second start on. */
  const started = `${name}.started`;
  let keptNames: string[] | undefined;

  /** The name of a loaded chunk's kept code for this command (`main.cjs.check.<key>.bin`). */
  const keptNameOf = (chunk: string, key: string): string => `${chunk}.${name}.${key}.bin`;

  /**
   * The kept code for this chunk text: this command's, else another command's (a job that runs
   * `check`, then `merge`, starts the second warm for the chunks they share), else none.
   */
  const keptFileOf = (chunk: string, key: string): { file: string; own: boolean } | null => {
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
    const own = keptNameOf(chunk, key);
    if (keptNames.includes(own)) return { file: path.join(kept, own), own: true };
    // Stryker disable next-line StringLiteral: another chunk of the very same text (and key) has the very same code
    const other = keptNames.find((entry) => entry.startsWith(`${chunk}.`) && entry.endsWith(`.${key}.bin`));
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
    // Read from one open file: the time and size are those of the text read.
    const fd = openSync(file, 'r');
    let source: string;
    let key: string | null = null;
    try {
      const { size, mtimeMs } = fstatSync(fd);
      source = readFileSync(fd, 'utf8');
      const hash = HEADER_HASH.exec(source)?.[1];
      if (hash) key = `${hash}-${size}-${Math.trunc(mtimeMs)}`;
    } finally {
      closeSync(fd);
    }
    keys.set(chunk, key);
    // The first chunk loaded (the entry) names the build.
    if (keys.size === 1) kept = nodeFolder && key && path.join(nodeFolder, key);
    const found = key ? keptFileOf(chunk, key) : null;
    let cachedData: Buffer | undefined;
    if (found) {
      try {
        cachedData = readFileSync(found.file);
      } catch {
        // removed since the folder was listed
      }
    }
    const script = new vm.Script(key ? source : wrapped(source), { filename: file, cachedData });
    const use: CacheUse = !kept || !key ? 'off' : !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : found?.own ? 'hit' : 'shared';
    // Stryker disable next-line StringLiteral: the log (NODE_DEBUG) is read by test/cli/startup.test.ts
    debug('chunk %s: code cache %s', chunk, use);
    uses.push({ name: chunk, cache: use });
    if (use !== 'hit' && use !== 'off') unsaved.push({ script, chunk });
    const module = { exports: {} as Record<string, unknown> };
    // Registered before it runs: a chunk required again while it loads sees its exports so far, as CommonJS does.
    modules.set(chunk, module);
    (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, chunkRequire, module, file, folder, pathToFileURL(file).href);
    return module.exports;
  }

  return {
    require: load,
    loaded: () => uses.map((u) => ({ ...u })),
    keyOf: (chunk) => keys.get(chunk) ?? null,
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
          keepFile(path.join(kept, keptNameOf(chunk, keys.get(chunk)!)), script.createCachedData());
          written++;
        }
        // Code of a chunk the build no longer has, or of an earlier text of one this run loaded.
        const chunks = new Set(readdirSync(folder));
        const keptEntries = readdirSync(kept);
        removeLeftPartials(kept, Date.now(), keptEntries);
        for (const entry of keptEntries) {
          const m = KEPT_FILE.exec(entry);
          if (!m) continue;
          const [, chunk, cacheName] = m;
          const key = keys.get(chunk);
          const stale = !chunks.has(chunk) || (cacheName === name && !!key && keptNameOf(chunk, key) !== entry);
          // Stryker disable next-line ObjectLiteral,BooleanLiteral: `force` matters only when another start removed it first
          if (stale) rmSync(path.join(kept, entry), { force: true });
        }
        pruneBuilds(nodeFolder!, kept);
        // Another Node's code unsaved for STALE_DAYS (one since upgraded): at worst, one cold start of it.
        for (const other of readdirSync(cache!)) {
          const at = path.join(cache!, other);
          // Stryker disable next-line ConditionalExpression: this Node's folder was just written to
          if (at !== nodeFolder && /^v\d+\.\d+\.\d+-\w+$/.test(other) && unsavedTooLong(statSync(at).mtimeMs)) {
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
