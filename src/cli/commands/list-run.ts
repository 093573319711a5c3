// What `steward list` does (its flags are list.ts). Loaded when the command runs.
import type { CliContext } from '../context.js';
import { builtinPolicyDir, displayPath, listPolicies } from '../../library/index.js';
import { chosenConfig } from '../config-choice.js';
import { print } from '../io.js';

export async function runList(ctx: CliContext, flags: { config?: string; policies?: string[]; format: string }): Promise<void> {
  const { io } = ctx;
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
}
