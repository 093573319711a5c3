// The steward CLI: one commander program, one file per command under commands/. Every way a
// run can end maps to the exit codes of DESIGN §9: 0 pass, 1 violations, 2 bad input (flags
// included; nothing sent), 3 could not evaluate (API or network).
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.js';
import type { CliContext } from './context.js';
import { type CliIo, fail } from './io.js';
import { compileWasmBaselineOnly, formatProblem, InputError, isApiError, packageVersion, useYamlAnswers } from '../library/startup.js';
import { summaryOf } from './commands/summaries.js';

export const EXIT = { pass: 0, violations: 1, input: 2, evaluate: 3 } as const;

const HELP_AFTER = `
Examples:
  steward check --sandbox                         the demo instance, no setup
  steward check --format sarif -o json=report.json
  steward check --only queue-no-admin-for-users --fail-on high
  steward fix --apply --yes --write               apply the planned permission fixes
  steward evidence --out evidence/2026-11         a verifiable evidence pack

Exit codes:
  0  every policy evaluated; no unwaived violation at or above failOn
  1  at least one such violation (verify: the pack differs)
  2  bad input (config, policy, manifest, waiver, flag): file:line:column, nothing sent
  3  could not evaluate (API, network, deadline): the gate fails closed

Environment:
  STEWARD_BASE_URL, STEWARD_WORKFLOW_URL   instance and workflow API base URLs
  STEWARD_TOKEN, STEWARD_WORKFLOW_TOKEN    tokens (never from a file)
  NO_COLOR, FORCE_COLOR                    colour off / on
`;

export async function buildProgram(ctx: CliContext, argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('steward')
    .description('policy-as-code compliance checks for a hosted analytics instance')
    .version(packageVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.io.stdout.write(s),
      writeErr: (s) => ctx.io.stderr.write(s),
    })
    .option('-q, --quiet', 'print no warnings or progress (errors and reports still)')
    .option('--color', 'colour the text report even when stdout is not a terminal')
    .option('--no-color', 'never colour (also NO_COLOR)')
    .addHelpText('after', HELP_AFTER);
  // Global flags apply to whichever command runs.
  program.hook('preAction', (_program, command) => {
    const o = program.opts<{ quiet?: boolean; color?: boolean }>();
    ctx.io = { ...ctx.io, quiet: Boolean(o.quiet), ...(o.color !== undefined ? { color: o.color } : {}) };
    // A command that takes an instance is one that could have sent requests.
    ctx.reachesAnInstance = command.options.some((option) => option.long === '--base-url');
  });
  // Settings above are inherited by the commands added below. Only the command `argv` names
  // declares its flags (all of them for `completion`, which describes every flag); the others
  // are listed by name and summary, and fail closed if one were ever run undeclared.
  const wanted = requestedCommand(argv.slice(2));
  for (const entry of COMMANDS) {
    if (wanted === entry.name || wanted === ALL_COMMANDS) entry.register(program, ctx);
    else {
      program
        .command(entry.name)
        .description(summaryOf(entry.name))
        .allowUnknownOption()
        .allowExcessArguments()
        .action(() => {
          throw new Error(`internal: the ${entry.name} command ran without its flags declared`);
        });
    }
  }
  return program;
}

const ALL_COMMANDS = Symbol('all commands');
const GLOBAL_FLAGS = new Set(['-q', '--quiet', '--color', '--no-color']);

/** The command the arguments name (`help <command>` names it too), ALL_COMMANDS for completion, or null. */
function requestedCommand(args: readonly string[]): string | typeof ALL_COMMANDS | null {
  const words = args.filter((a) => !GLOBAL_FLAGS.has(a));
  const first = words[0] === 'help' ? words[1] : words[0];
  if (first === 'completion') return ALL_COMMANDS;
  return COMMANDS.some((c) => c.name === first) ? (first as string) : null;
}

/** Runs the CLI with `argv` (as process.argv: node, script, args…); resolves to the exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  // The CLI's process is steward's own: sql.js, where a history needs it, skips V8's optimising tier (history/wasm-tier.ts).
  compileWasmBaselineOnly();
  // The binary's answers about its input files (cli/yaml-answers.ts); a run in a test process has none.
  useYamlAnswers(io.yamlAnswers ?? null);
  const ctx: CliContext = { io, exitCode: EXIT.pass };
  try {
    const program = await buildProgram(ctx, argv);
    await program.parseAsync(argv);
    return ctx.exitCode;
  } catch (error) {
    return exitCodeForError(error, io, ctx.reachesAnInstance);
  }
}

/** Prints what went wrong (never a token) and picks the exit code. */
export function exitCodeForError(error: unknown, io: CliIo, reachesAnInstance = false): number {
  if (error instanceof CommanderError) {
    // Help and version end with exitCode 0; usage errors were already printed by commander.
    return error.exitCode === 0 ? EXIT.pass : EXIT.input;
  }
  if (error instanceof InputError) {
    fail(io, error.problems.map(formatProblem));
    // "Nothing was sent" only where something could have been: a command that reaches an instance.
    const what = error.problems.length === 1 ? 'bad input' : `${error.problems.length} input problems`;
    fail(io, `steward: ${what}${reachesAnInstance ? '; nothing was sent to the API' : ''}`);
    return EXIT.input;
  }
  if (isApiError(error)) {
    fail(io, `steward: could not evaluate: ${error.message}`);
    return EXIT.evaluate;
  }
  const message = error instanceof Error ? error.message : String(error);
  fail(io, `steward: ${message}`);
  return EXIT.evaluate;
}
