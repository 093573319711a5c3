// Where answers about YAML input files are kept across runs (the CLI's store, cli/yaml-answers.ts),
// for io/yaml-source.ts to recall. No dependency here: the CLI's start-up sets it before any
// command's module loads.

/** A kept answer is JSON text, keyed by its query (`data`, `node ["scope","datasets"]`). */
export type YamlAnswers = ReadonlyMap<string, string>;

/**
 * Answers kept across runs: those about a text are only ever recalled for that very text read as
 * that very file, by the same build.
 */
export interface YamlAnswerStore {
  /** The answers kept for `text` read as `file`, or undefined. */
  recall(file: string, text: string): YamlAnswers | undefined;
  /** A file read this run; `answers` says what it knows by the run's end (null: nothing to keep). */
  track(file: string, text: string, answers: () => YamlAnswers | null): void;
}

let current: YamlAnswerStore | null = null;

/** The store recallYamlSource answers from (the CLI's), or none (the library's runs). */
export function useYamlAnswers(store: YamlAnswerStore | null): void {
  current = store;
}

export function yamlAnswerStore(): YamlAnswerStore | null {
  return current;
}
