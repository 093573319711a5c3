// `steward issues sync --from REPORT.json`: one GitHub issue per failing policy kept in sync with
// the report (library/issues-sync.ts). Reads GITHUB_TOKEN, GITHUB_REPOSITORY and GITHUB_API_URL
// (GitHub Enterprise Server) as a workflow step has them; the token is a secret of the run.
import path from 'node:path';
import { type Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { print, secretsOf } from '../io.js';
import { summaryOf } from './summaries.js';

export function registerIssues(program: Command, ctx: CliContext): void {
  const issues = program.command('issues').description(summaryOf('issues'));
  issues
    .command('sync')
    .description('open, update, reopen and close the `steward` issues of the repository (GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL) to match a report')
    .requiredOption('--from <report>', 'a JSON report written by `steward check --format json` (or --output json=…)')
    .addOption(new Option('--by <key>', 'one issue per failing policy, or per team the config\'s owners: map routes findings to').choices(['policy', 'team']).default('policy'))
    .action(async (flags: { from: string; by: 'policy' | 'team' }) => {
      const { io } = ctx;
      // Loaded here: `steward issues sync --help` loads no command body.
      const { InputError, readReportFile, syncIssues } = await import('../../library/without-policies.js');
      const missing = ['GITHUB_TOKEN', 'GITHUB_REPOSITORY'].filter((name) => !io.env[name]);
      if (missing.length > 0) {
        throw new InputError(missing.map((name) => ({ file: name, line: 0, column: 0, message: `not set: issues sync needs ${name === 'GITHUB_TOKEN' ? 'a token that may write issues' : 'the repository as owner/repo'}` })));
      }
      const token = io.env.GITHUB_TOKEN!;
      const secrets = secretsOf(io).add(token);
      const report = await readReportFile(path.resolve(io.cwd, flags.from), io.cwd);
      const outcome = await syncIssues(report, { token, secrets, repository: io.env.GITHUB_REPOSITORY!, apiUrl: io.env.GITHUB_API_URL || undefined, by: flags.by });
      const list = (n: number[]) => (n.length ? n.map((x) => `#${x}`).join(', ') : 'none');
      print(io, `opened ${list(outcome.opened)}; updated ${list(outcome.updated)}; reopened ${list(outcome.reopened)}; closed ${list(outcome.closed)}; ${outcome.unchanged.length} unchanged\n`);
      ctx.exitCode = 0;
    });
}
