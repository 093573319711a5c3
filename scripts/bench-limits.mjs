// Benchmark 8: steward against the limits of the machine, each a ratio measured in the same run:
// CEL evaluation on fresh documents against the same predicate written in JavaScript; the
// client's CPU per request against a bare keep-alive fetch + JSON.parse of the same answers;
// `steward --version` and `--help` against a bare `node -e 0`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { medianMs } from './bench-median.mjs';
import { createClient } from '../dist/index.js';
import { startSandbox } from '../dist/sandbox.js';

const EXPRESSION = 'resource.schedule.timezone != "" && (resource.enabled == false || resource.recipientCount > 0)';
const predicate = (r) => r.schedule.timezone !== '' && (r.enabled === false || r.recipientCount > 0);

/** Schedule-like documents as a page brings them: a dozen fields, a nested schedule, 20 recipients. */
function freshDocuments(n) {
  return Array.from({ length: n }, (_, i) =>
    JSON.parse(
      JSON.stringify({
        id: i,
        title: `Schedule ${i}`,
        enabled: i % 3 !== 0,
        recipientCount: i % 5,
        ownerId: 7,
        cardId: 9000 + i,
        owner: true,
        schedule: { timezone: i % 7 ? 'Europe/Berlin' : '', frequency: 'DAILY', daysToRun: '*', hourOfDay: 8, minOfHour: 0, startDate: '2026-01-01', nextRunDate: '2026-12-01' },
        recipients: Array.from({ length: 20 }, (_, r) => ({ id: r, type: 'USER', name: `User ${r}`, email: `u${r}@acme.example` })),
        tags: ['finance', 'monthly'],
        description: 'Sent to the finance leads on the first working day.',
      }),
    ),
  );
}

/** Evaluations a second: CEL (compiled once, a fresh document each time) and plain JS. */
async function celVersusJs(dir) {
  const bundle = path.join(dir, 'cel.mjs');
  await build({ entryPoints: ['src/policy/cel.ts'], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
  const { compileExpression } = await import(pathToFileURL(bundle).href);
  const expr = compileExpression(EXPRESSION, { file: 'bench', line: 1, column: 1 }, { variables: ['resource'] });
  // Warm both up first (the JIT), then time fresh documents each.
  for (const d of freshDocuments(2_000)) expr.evaluate({ resource: d });
  freshDocuments(2_000).map(predicate);
  const docs = freshDocuments(20_000);
  let agree = 0;
  const t0 = performance.now();
  const cel = docs.map((d) => expr.evaluate({ resource: d }));
  const celMs = performance.now() - t0;
  // One pass over fresh documents too (a loop over the same ones would measure a hot cache).
  const js = freshDocuments(200_000);
  const t1 = performance.now();
  const plain = js.map(predicate);
  const jsMs = performance.now() - t1;
  for (let i = 0; i < docs.length; i++) if (cel[i] === plain[i]) agree++;
  return { celPerS: docs.length / (celMs / 1000), jsPerS: js.length / (jsMs / 1000), agree: agree === docs.length };
}

/** CPU milliseconds per request: steward's client, and a bare fetch + JSON.parse, same answers. */
async function cpuPerRequest() {
  const sandbox = await startSandbox({ size: { datasets: 2000, schedules: 0, cards: 0 } });
  const ids = [...sandbox.state.datasetAccess.keys()];
  const cpu = async (fn) => {
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  const inBatches = async (fn) => {
    for (let i = 0; i < ids.length; i += 8) await Promise.all(ids.slice(i, i + 8).map(fn));
  };
  const client = createClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, concurrency: 8 });
  const clientMs = await cpu(() => inBatches((id) => client.getDatasetPermissions(id)));
  const url = (id) => `${sandbox.baseUrl}/api/data/v3/datasources/${encodeURIComponent(id)}/permissions`;
  const headers = { 'X-SERVICE-Developer-Token': sandbox.token };
  const bareMs = await cpu(() => inBatches(async (id) => JSON.parse(await (await fetch(url(id), { headers })).text())));
  const requests = ids.length;
  await sandbox.close();
  // Both include the sandbox's own CPU for the same answers (one process).
  return { clientMs: clientMs / requests, bareMs: bareMs / requests };
}

/** Median milliseconds of a whole process, started `runs` times. */
const processMs = (runs, file, args) => medianMs(runs, () => execFileSync(file, args, { stdio: 'ignore' }));

export async function benchLimits(print, table, expect) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-limits-'));
  const cel = await celVersusJs(dir);
  expect(cel.agree, 'limits: CEL and the JavaScript predicate disagree');
  const cpu = await cpuPerRequest();
  const node = await processMs(5, process.execPath, ['-e', '0']);
  const version = await processMs(5, process.execPath, ['dist/cli.js', '--version']);
  const help = await processMs(5, process.execPath, ['dist/cli.js', '--help']);
  rmSync(dir, { recursive: true, force: true });
  const k = (n) => `${Math.round(n / 1000).toLocaleString('en')} k/s`;
  print('\n### 8. Against the limits (same run)\n');
  print(
    table(
      ['what', 'steward', 'limit', 'ratio'],
      [
        ['CEL evaluations on fresh documents', k(cel.celPerS), `${k(cel.jsPerS)} (the predicate in JS)`, `${(cel.jsPerS / cel.celPerS).toFixed(0)}× slower`],
        ['CPU per request (client + sandbox)', `${cpu.clientMs.toFixed(2)} ms`, `${cpu.bareMs.toFixed(2)} ms (fetch + JSON.parse)`, `${(cpu.clientMs / cpu.bareMs).toFixed(2)}×`],
        ['`steward --version`', `${version.toFixed(0)} ms`, `${node.toFixed(0)} ms (node -e 0)`, `${(version / node).toFixed(2)}×`],
        ['`steward --help`', `${help.toFixed(0)} ms`, `${node.toFixed(0)} ms (node -e 0)`, `${(help / node).toFixed(2)}×`],
      ],
    ),
  );
}
