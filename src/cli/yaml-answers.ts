// The CLI's store of answers about its YAML input files (io/yaml-answers.ts): one file per
// command in a folder of the build's own in the cache folder (code-cache.ts), holding what the
// files a run read answered (their data, where each path the run asked about is), each beside
// the file's whole text. A start whose config, manifests and waivers are unchanged parses none
// of them: ~8 ms of a 110 ms `check --from` on Node 24 (BENCHMARKS.md). Only Node's built-ins
// here: the entry loads this file.
import type { YamlAnswers, YamlAnswerStore } from '../library/startup.js';
import { fs, path, util } from './builtins.js';
import { keepFile, pruneBuilds, removeLeftPartials } from './code-cache.js';

const { existsSync, mkdirSync, readFileSync } = fs;

// Stryker disable next-line StringLiteral: NODE_DEBUG is read at process start; test/cli/yaml-answers.test.ts spawns the binary to read the log
const debug = util.debuglog('steward');

/** What the file holds: the build that answered, and each file's text with its answers. */
interface KeptFile {
  build: string;
  entries: { file: string; text: string; answers: [string, string][] }[];
}

export interface YamlAnswerFile extends YamlAnswerStore {
  /**
   * Writes what this run's files answered, when a file was read anew or asked something new;
   * only the files this run read are kept. Returns how many files' answers it wrote. Never
   * throws: a store that cannot be written costs time only.
   */
  save(): number;
}

/**
 * The store of `name` (a command: cli/chunk-loader.ts cacheNameOf) in `folder`, for answers
 * given by `build` (the build's key: answers of another build are never recalled; each build's
 * are in a folder of its own, so two installs of steward never overwrite each other's, pruned
 * as code-cache.ts pruneBuilds says); null when either is missing (the cache off) or the key is
 * no folder's name.
 */
export function yamlAnswerFile(folder: string | null, build: string | null, name: string): YamlAnswerFile | null {
  if (!folder || !build || !/^[\w-]+$/.test(build)) return null;
  const buildFolder = path.join(folder, build);
  const file = path.join(buildFolder, `${name}.json`);
  let kept: Map<string, YamlAnswers> | undefined;
  /** Each file read this run: what every reading of it knows by the end, and the answers recalled for it. */
  const tracked = new Map<string, { file: string; text: string; readings: (() => YamlAnswers | null)[]; recalled: YamlAnswers | undefined }>();
  const keyOf = (shown: string, text: string) => `${shown}\n${text}`;

  const read = (): Map<string, YamlAnswers> => {
    const found = new Map<string, YamlAnswers>();
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as KeptFile;
      if (data.build !== build || !Array.isArray(data.entries)) return found;
      for (const e of data.entries) {
        if (typeof e.file === 'string' && typeof e.text === 'string' && Array.isArray(e.answers)) found.set(keyOf(e.file, e.text), new Map(e.answers));
      }
    } catch {
      // None kept yet, or a file this store cannot read: every file is parsed.
    }
    return found;
  };

  return {
    recall(shown, text) {
      kept ??= read();
      const answers = kept.get(keyOf(shown, text));
      // Stryker disable next-line StringLiteral: NODE_DEBUG is read at process start; the binary's test below reads the log
      debug('yaml %s: answers %s', shown, answers ? 'recalled' : 'not kept');
      return answers;
    },
    track(shown, text, answers) {
      const key = keyOf(shown, text);
      const known = tracked.get(key);
      if (known) known.readings.push(answers);
      else tracked.set(key, { file: shown, text, readings: [answers], recalled: kept?.get(key) });
    },
    save() {
      const entries: KeptFile['entries'] = [];
      let asked = false;
      for (const t of tracked.values()) {
        // A file read twice (a config loaded again) keeps what either reading was asked.
        const readings = t.readings.map((answers) => answers());
        if (readings.some((answers) => answers === null)) continue;
        const answers = new Map(readings.flatMap((a) => [...a!]));
        // New answers, a file read anew (answered nothing kept before), or an answer given again
        // in place of a kept one (damaged JSON, computed afresh: kept as it is, recomputed every run).
        if ([...answers].some(([query, answer]) => t.recalled?.get(query) !== answer)) asked = true;
        entries.push({ file: t.file, text: t.text, answers: [...answers] });
      }
      if (!asked) return 0;
      try {
        // Not its parent: a cache folder that went away is made again only where it is checked (code-cache.ts).
        if (!existsSync(buildFolder)) mkdirSync(buildFolder, { mode: 0o700 });
        keepFile(file, JSON.stringify({ build, entries } satisfies KeptFile));
        removeLeftPartials(buildFolder);
        pruneBuilds(folder, buildFolder);
      } catch (error) {
        // Stryker disable next-line StringLiteral: only logged (NODE_DEBUG)
        debug('yaml answers not written: %s', (error as Error).message);
        return 0;
      }
      return entries.length;
    },
  };
}
