// Bench row: issue 29's history row as the issue states it, whole processes. `steward check
// --history` of 10,000 findings a run, recording run 30 (and run 2) into its file, against the
// same check without a history. The check reads a snapshot of a sandbox of 41,000 report
// schedules (`--from`: the denominator is a check's CPU without the network, the harshest
// limit) with one policy of the bench's that about a quarter of them break, and a token in the
// environment as a live run has one (a run with a history redacts the report it records).
// Measured in rounds, one start of each a round, each recording into a fresh copy of its file
// (the copy untimed): a slow minute of the shared machine falls on the three alike.
import { copyFileSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processUsage } from './bench-process.mjs';
import { median, pairedRatio } from './bench-median.mjs';
import { sandboxProcess } from './bench-sandbox.mjs';

const SCHEDULES = 41_000;
const RUNS = 29;
const ROUNDS = 11;
const POLICY = `policies:
  - id: bench-no-daily-schedules
    title: Report schedules run weekly or monthly
    description: The bench's policy that about a quarter of the sandbox's generated schedules break.
    severity: low
    resource: reportSchedule
    assert: resource.schedule.frequency != 'DAILY'
    message: "Report schedule {{ label(resource.title, resource.id) }} runs daily"
`;

/** The check's files in `dir`: the config, the policy, the snapshot (recorded once, by the Node that runs the bench). */
async function prepare(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'bench-policies.yaml'), POLICY);
  const config = path.join(dir, 'steward.yaml');
  writeFileSync(config, 'policies: [builtin, ./bench-policies.yaml]\ninstance: { pageSize: 500 }\n');
  const snapshot = path.join(dir, 'snapshot.jsonl');
  const sandbox = await sandboxProcess({ size: { schedules: SCHEDULES, datasets: 0, cards: 0 } });
  processUsage(['dist/cli.js', 'snapshot', '--config', config, '--only', 'bench-no-daily-schedules', '--out', snapshot], {
    env: { ...process.env, STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token },
  });
  await sandbox.close();
  return { config, snapshot };
}

/** One Node's row: runs 1–29 recorded, then ROUNDS rounds of run 2, run 30 and no history. */
function measure(dir, { config, snapshot }, node) {
  const env = { ...process.env, STEWARD_TOKEN: 'tok-bench-history-check' };
  const check = ['dist/cli.js', 'check', '--config', config, '--from', snapshot, '--only', 'bench-no-daily-schedules', '--format', 'json', '--quiet'];
  const file = path.join(dir, 'history.sqlite');
  const early = path.join(dir, 'early.sqlite');
  const work = path.join(dir, 'work.sqlite');
  rmSync(file, { force: true });
  let findings = 0;
  for (let run = 1; run <= RUNS; run++) {
    findings = JSON.parse(processUsage([...check, '--history', file], { node, env }).stdout).summary.violations;
    if (run === 1) copyFileSync(file, early);
  }
  const recording = (from) => {
    copyFileSync(from, work);
    const usage = processUsage([...check, '--history', work], { node, env });
    rmSync(work, { force: true });
    return usage;
  };
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const second = recording(early);
    const thirtieth = recording(file);
    const none = processUsage(check, { node, env });
    rounds.push({ second, thirtieth, none });
  }
  const bytes = statSync(file).size;
  rmSync(dir, { recursive: true, force: true });
  const of = (pick) => median(rounds.map(pick));
  return {
    findings,
    noneMs: of((r) => r.none.cpuMs),
    secondMs: of((r) => r.second.cpuMs),
    thirtiethMs: of((r) => r.thirtieth.cpuMs),
    ratios: rounds.map((r) => r.thirtieth.cpuMs / r.none.cpuMs),
    flat: rounds.map((r) => r.thirtieth.cpuMs / r.second.cpuMs),
    bytes,
    rssMb: { none: of((r) => r.none.rssMb), thirtieth: of((r) => r.thirtieth.rssMb) },
  };
}

/** The row on each Node in `nodes` ({ bin, version }), the first recording the snapshot. */
export async function benchHistoryCheck(dir, nodes) {
  const files = await prepare(dir);
  return nodes.map((node) => ({ version: node.version, ...measure(path.join(dir, node.version), files, node.bin) }));
}

/** The row's table: CPU of each, the ratio run 30 ÷ no history (goal ≤ 1.2×), and run 30 ÷ run 2 (flat). */
export function historyCheckTable(rows) {
  return [
    ['Node', 'findings a run', 'check, no history, CPU ms', 'run 2 CPU ms', 'run 30 CPU ms', 'run 30 ÷ no history (≤ 1.2×)', 'run 30 ÷ run 2 (flat)', 'file at run 29', 'peak RSS MB, no history / run 30'],
    rows.map((r) => [
      r.version,
      r.findings.toLocaleString('en'),
      r.noneMs.toFixed(0),
      r.secondMs.toFixed(0),
      r.thirtiethMs.toFixed(0),
      `${pairedRatio(r.ratios)} ${median(r.ratios) <= 1.2 ? '(met)' : '(not met)'}`,
      pairedRatio(r.flat),
      `${(r.bytes / 2 ** 20).toFixed(1)} MiB`,
      `${r.rssMb.none.toFixed(0)} / ${r.rssMb.thirtieth.toFixed(0)}`,
    ]),
  ];
}
