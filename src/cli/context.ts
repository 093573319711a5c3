import type { CliIo } from './io.js';

/** Shared by all commands: where to write, and the exit code the run ends with. */
export interface CliContext {
  io: CliIo;
  exitCode: number;
}
