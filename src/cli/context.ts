import type { CliIo } from './io.js';

/** Shared by all commands: where to write, and the exit code the run ends with. */
export interface CliContext {
  io: CliIo;
  exitCode: number;
  /** The running command takes an instance (set before its action): its input errors say nothing was sent. */
  reachesAnInstance?: boolean;
}
