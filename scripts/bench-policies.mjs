// Bench row: many policies. A governance team that generates policies (one a dataset, a team, a
// control) runs thousands over one instance; every step that handles a policy must do so once,
// not once per finding of every other policy (each policy row counting its violations by
// filtering all findings took 1.2 s of a check of 4,000 policies before src/engine/verdict.ts
// counted them in one pass). `check` of the demo snapshot through the library, in this process,
// with SMALL and LARGE generated schedule policies (each failing some of the 46 schedules, so the
// findings grow with the policies); the cost per policy at LARGE must stay within 1.5× the cost
// at SMALL. One unmeasured run of a few policies first, so neither size pays V8's compiling.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { check } from '../dist/index.js';
import { median } from './bench-median.mjs';

const SMALL = 1_000;
const LARGE = 4_000;
const RUNS = 3;

function policiesFile(dir, n) {
  const lines = ['policies:'];
  for (let i = 0; i < n; i++) {
    lines.push(
      `  - id: generated-${i}`,
      `    title: Generated policy ${i}`,
      '    description: A generated policy of the bench.',
      '    severity: low',
      '    resource: reportSchedule',
      `    assert: resource.recipientCount > ${i % 7}`,
      '    message: "Report schedule {{ resource.id }} has few recipients"',
    );
  }
  const dirN = path.join(dir, String(n));
  mkdirSync(dirN, { recursive: true });
  writeFileSync(path.join(dirN, 'policies.yaml'), `${lines.join('\n')}\n`);
  writeFileSync(path.join(dirN, 'steward.yaml'), 'policies: [./policies.yaml]\n');
  return path.join(dirN, 'steward.yaml');
}

/** Milliseconds of one check of n policies (median of RUNS), and its findings. */
async function checkMs(dir, snapshot, n, runs = RUNS) {
  const config = policiesFile(dir, n);
  const times = [];
  let findings = 0;
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now();
    const report = await check({ config, from: snapshot, env: {} });
    times.push(performance.now() - t0);
    findings = report.findings.length;
  }
  return { n, ms: median(times), findings };
}

/** `snapshot`: a recording of the demo instance (46 schedules). */
export async function benchPolicies(dir, snapshot) {
  await checkMs(dir, snapshot, 50, 1);
  const rows = [await checkMs(dir, snapshot, SMALL), await checkMs(dir, snapshot, LARGE)];
  const perPolicy = rows.map((r) => (r.ms * 1000) / r.n);
  return { rows, perPolicy, ratio: perPolicy[1] / perPolicy[0] };
}
