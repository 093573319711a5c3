// Where the CLI writes. stdout carries only the report (machine formats are never mixed with
// anything else); stderr carries progress (on a TTY only), warnings and errors.
import { printable, SecretSet, type YamlAnswerStore } from '../library/startup.js';

export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  cwd: string;
  /** `--quiet`: warnings and progress are not printed (errors and reports are). */
  quiet?: boolean;
  /** `--color` true, `--no-color` false; unset: a terminal without NO_COLOR, or FORCE_COLOR. */
  color?: boolean;
  /**
   * What no line may carry: the environment's tokens, set by `run` (secretsOf), and a sandbox's
   * token once it is started for the command. warn, fail and the report writers go through it.
   */
  secrets?: SecretSet;
  /** Answers about the config, manifests and waivers kept across runs (the binary's; yaml-answers.ts). */
  yamlAnswers?: YamlAnswerStore;
}

/** Terminals that report no width (0 or unset: a pipe, some CI consoles) are this wide. */
export const DEFAULT_COLUMNS = 80;

export function columnsOf(stream: CliIo['stdout']): number {
  return stream.columns && stream.columns > 0 ? stream.columns : DEFAULT_COLUMNS;
}

/**
 * `--color`/`--no-color` first; then FORCE_COLOR (set and not `0`: colour even in a pipe, as
 * Node and most CLIs read it); then a terminal without NO_COLOR (https://no-color.org).
 */
export function colorFor(stream: CliIo['stdout'], env: CliIo['env'], flag?: boolean): boolean {
  if (flag !== undefined) return flag;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

/** The io's secret set, made from the environment's tokens on first use. */
export function secretsOf(io: CliIo): SecretSet {
  io.secrets ??= SecretSet.of(io.env.STEWARD_TOKEN, io.env.STEWARD_WORKFLOW_TOKEN);
  return io.secrets;
}

/** Text for stdout or stderr, with every secret of the run redacted. */
export function redact(io: CliIo, text: string): string {
  return secretsOf(io).redact(text);
}

// Lines come as strings or as lists of them: a list spread into the call (`fail(io, ...lines)`)
// passes each line as an argument, and 150,000 problems overflowed the call stack.

/** Warning lines to stderr, each ending in a newline; nothing with --quiet. */
export function warn(io: CliIo, ...lines: (string | readonly string[])[]): void {
  if (io.quiet) return;
  for (const line of lines.flat()) io.stderr.write(printable(redact(io, `${line}\n`)));
}

/** Error lines to stderr: printed even with --quiet. */
export function fail(io: CliIo, ...lines: (string | readonly string[])[]): void {
  for (const line of lines.flat()) io.stderr.write(printable(redact(io, `${line}\n`)));
}

/** Text to stdout (listings, plans, diffs): secrets redacted, outside text made printable. */
export function print(io: CliIo, text: string): void {
  io.stdout.write(printable(redact(io, text)));
}
