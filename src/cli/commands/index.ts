// The commands, in the order `steward --help` lists them. A command's module (its flags and
// its body, which pull in the library and its dependencies) loads only when the command runs:
// `steward --help` and a mistyped command load none (commands/summaries.ts has their lines).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { CommandName } from './summaries.js';

export type RegisterCommand = (program: Command, ctx: CliContext) => void;

export interface CommandEntry {
  name: CommandName;
  load(): Promise<RegisterCommand>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'check', load: async () => (await import('./check.js')).registerCheck },
  { name: 'merge', load: async () => (await import('./merge.js')).registerMerge },
  { name: 'fix', load: async () => (await import('./fix.js')).registerFix },
  { name: 'doctor', load: async () => (await import('./doctor.js')).registerDoctor },
  { name: 'validate', load: async () => (await import('./validate.js')).registerValidate },
  { name: 'test', load: async () => (await import('./test.js')).registerTest },
  { name: 'list', load: async () => (await import('./list.js')).registerList },
  { name: 'snapshot', load: async () => (await import('./snapshot.js')).registerSnapshot },
  { name: 'sandbox', load: async () => (await import('./sandbox.js')).registerSandbox },
  { name: 'init', load: async () => (await import('./init.js')).registerInit },
  { name: 'waive', load: async () => (await import('./waive.js')).registerWaive },
  { name: 'evidence', load: async () => (await import('./evidence.js')).registerEvidence },
  { name: 'verify', load: async () => (await import('./evidence.js')).registerVerify },
  { name: 'history', load: async () => (await import('./history.js')).registerHistory },
  { name: 'diff', load: async () => (await import('./diff.js')).registerDiff },
  { name: 'explain', load: async () => (await import('./explain.js')).registerExplain },
  { name: 'notify', load: async () => (await import('./notify.js')).registerNotify },
  { name: 'issues', load: async () => (await import('./issues.js')).registerIssues },
  { name: 'completion', load: async () => (await import('./completion.js')).registerCompletion },
];

