// The commands, in the order `steward --help` lists them. A command's module declares its flags
// and nothing more (commander and the names its flags offer: test/architecture checks it), so all
// of them load with the program; what a command does is its `<command>-run.ts` (or a library
// entry), which its action imports when it runs. `steward --help` and a mistyped command register
// none (commands/summaries.ts has their lines); a command's own help registers that command.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import type { CommandName } from './summaries.js';
import { registerCheck } from './check.js';
import { registerMerge } from './merge.js';
import { registerFix } from './fix.js';
import { registerDoctor } from './doctor.js';
import { registerValidate } from './validate.js';
import { registerTest } from './test.js';
import { registerList } from './list.js';
import { registerSnapshot } from './snapshot.js';
import { registerSandbox } from './sandbox.js';
import { registerInit } from './init.js';
import { registerWaive } from './waive.js';
import { registerEvidence, registerVerify } from './evidence.js';
import { registerHistory } from './history.js';
import { registerDiff } from './diff.js';
import { registerExplain } from './explain.js';
import { registerNotify } from './notify.js';
import { registerIssues } from './issues.js';
import { registerCompletion } from './completion.js';

export type RegisterCommand = (program: Command, ctx: CliContext) => void;

export interface CommandEntry {
  name: CommandName;
  register: RegisterCommand;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'check', register: registerCheck },
  { name: 'merge', register: registerMerge },
  { name: 'fix', register: registerFix },
  { name: 'doctor', register: registerDoctor },
  { name: 'validate', register: registerValidate },
  { name: 'test', register: registerTest },
  { name: 'list', register: registerList },
  { name: 'snapshot', register: registerSnapshot },
  { name: 'sandbox', register: registerSandbox },
  { name: 'init', register: registerInit },
  { name: 'waive', register: registerWaive },
  { name: 'evidence', register: registerEvidence },
  { name: 'verify', register: registerVerify },
  { name: 'history', register: registerHistory },
  { name: 'diff', register: registerDiff },
  { name: 'explain', register: registerExplain },
  { name: 'notify', register: registerNotify },
  { name: 'issues', register: registerIssues },
  { name: 'completion', register: registerCompletion },
];
