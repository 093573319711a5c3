// `steward list`: every policy the config (or --policies) loads: id, severity, resource, title.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collectRaw, formatParser } from '../options.js';
import { print } from '../io.js';
import { summaryOf } from './summaries.js';

export function registerList(program: Command, ctx: CliContext): void {
  program
    .command('list')
    .description(summaryOf('list'))
    .option('-c, --config <file>', 'config file (default: the nearest steward.yaml up to the repository root)')
    .option('-p, --policies <path>', 'policy file or folder (repeatable)', collectRaw)
    .option('-f, --format <format>', 'text|json|ids (one id a line, for scripts and completion)', formatParser(['text', 'json', 'ids']), 'text')
    .action(async (flags: { config?: string; policies?: string[]; format: string }) => {
      const { io } = ctx;
      // Loaded here: `steward list --help` loads no command body.
      const [{ builtinPolicyDir, displayPath, listPolicies }, { chosenConfig }] = await Promise.all([import('../../library/index.js'), import('../config-choice.js')]);
      const policies = await listPolicies({ config: chosenConfig(flags, io), cwd: io.cwd, env: io.env, policies: flags.policies });
      // Where each came from: a pack by name with its version, the built-in pack, or its file.
      const from = (p: (typeof policies)[number]) =>
        p.source ? `${p.source.package}@${p.source.version}` : p.location?.file.startsWith(displayPath(builtinPolicyDir(), io.cwd)) ? 'builtin' : (p.location?.file ?? '');
      const rows = policies.map((p) => ({ id: p.id, severity: p.severity, resource: p.resource, title: p.title, source: from(p) }));
      if (flags.format === 'ids') {
        print(io, rows.map((r) => `${r.id}\n`).join(''));
      } else if (flags.format === 'json') {
        print(io, `${JSON.stringify(rows, null, 2)}\n`);
      } else {
        const header = { id: 'ID', severity: 'SEVERITY', resource: 'RESOURCE', title: 'TITLE', source: 'FROM' };
        const all = [header, ...rows];
        const width = (k: 'id' | 'severity' | 'resource' | 'source') => all.reduce((widest, r) => Math.max(widest, r[k].length), 0);
        const w = { id: width('id'), severity: width('severity'), resource: width('resource'), source: width('source') };
        for (const r of all) {
          print(io, `${r.id.padEnd(w.id)}  ${r.severity.padEnd(w.severity)}  ${r.resource.padEnd(w.resource)}  ${r.source.padEnd(w.source)}  ${r.title}\n`);
        }
      }
      ctx.exitCode = 0;
    });
}
