// Where the CLI writes. stdout carries only the report (machine formats are never mixed with
// anything else); stderr carries progress (on a TTY only), warnings and errors.
import { redactSecrets } from '../library/index.js';

export interface CliIo {
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
  cwd: string;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** Colour only on a terminal, and never with NO_COLOR set (https://no-color.org). */
export function colorFor(stream: CliIo['stdout'], env: CliIo['env']): boolean {
  return Boolean(stream.isTTY) && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

/** Lines to stderr, each ending in a newline. */
export function warn(io: CliIo, ...lines: string[]): void {
  for (const line of lines) io.stderr.write(`${line}\n`);
}

/** Replaces every occurrence of the secrets in text, for anything printed from a request. */
export function redact(text: string, secrets: (string | null | undefined)[]): string {
  return redactSecrets(text, secrets);
}
