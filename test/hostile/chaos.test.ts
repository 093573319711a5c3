// A chaos run: the demo instance read under random faults (resets, 429s, 500/502/503, truncated
// JSON bodies, slow bodies), one fault sequence per seed. Every run's verdict is the fault-free
// one with the very same findings, or exit 3 (gate `error`): never a different pass or fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { check } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const SEEDS = 30;
const FAULTS = {
  dropRate: 0.02,
  rateLimitRate: 0.04,
  retryAfterSeconds: 1,
  errorRates: { 500: 0.02, 502: 0.02, 503: 0.03 },
  malformedJsonRate: 0.01,
  slowBodyMs: 2,
};

async function run(sandbox: Sandbox): Promise<Report> {
  return check({
    config: 'demo/steward.yaml',
    cwd: ROOT,
    env: {},
    baseUrl: sandbox.baseUrl,
    workflowUrl: sandbox.workflowUrl,
    token: sandbox.token,
    // Retry waits (Retry-After included) capped at 5 ms: the test counts outcomes, not waits.
    client: { retryBaseDelayMs: 1, retryMaxDelayMs: 5, timeoutMs: 2000 },
  });
}

/** What a verdict is made of: the gate and every finding's identity and status. */
function verdict(report: Report): string[] {
  return [
    `gate ${report.summary.gate}`,
    ...report.findings.map((f) => `${f.policy} ${f.resource.kind}/${f.resource.id} ${f.path ?? ''} ${f.status} ${f.fingerprint}`).sort(),
  ];
}

let clean: Report;
beforeAll(async () => {
  const sandbox = await startSandbox({ token: 'tok-chaos-run-0001' });
  clean = await run(sandbox);
  await sandbox.close();
});

describe(`chaos run: ${SEEDS} fault sequences over the demo instance`, () => {
  const outcomes: string[] = [];
  let retries = 0;
  afterAll(() => {
    const same = outcomes.filter((o) => o === 'same').length;
    console.log(`chaos: ${SEEDS} seeds: ${same} runs with the fault-free verdict, ${SEEDS - same} exit 3, 0 different verdicts (${retries} retries in all)`);
  });

  it('the fault-free run fails on the planted violations', () => {
    expect(clean.summary.gate).toBe('fail');
    expect(clean.summary.violations).toBeGreaterThan(10);
  });

  for (let seed = 1; seed <= SEEDS; seed++) {
    it(`seed ${seed}: the fault-free verdict, or exit 3`, async () => {
      const sandbox = await startSandbox({ token: 'tok-chaos-run-0001', faultSeed: seed, faults: FAULTS });
      try {
        const report = await run(sandbox);
        retries += report.http.retries;
        if (report.summary.gate === 'error') {
          outcomes.push('error');
          // Exit 3 says why: at least one finding or policy in error.
          expect(report.summary.errors + report.policies.filter((p) => p.status === 'error').length).toBeGreaterThan(0);
        } else {
          outcomes.push('same');
          expect(verdict(report)).toEqual(verdict(clean));
        }
      } finally {
        await sandbox.close();
      }
    });
  }

  it('the faults happened: runs retried, and some ended in exit 3', () => {
    expect(retries).toBeGreaterThan(SEEDS);
    expect(outcomes.filter((o) => o === 'same').length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === 'error').length).toBeGreaterThan(0);
  });
});
