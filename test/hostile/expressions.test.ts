// Expressions that would hang or exhaust memory: nine nested `all()` over ten items (10^9 loop
// iterations) and nested `map()` (a list of 10^9 elements). Nesting past MAX_COMPREHENSION_NESTING
// is exit 2 at its position before any request; what the nesting bound lets through is stopped at
// run time by the step budget: an evaluation error naming the policy (exit 3), never a hang, a
// crash or a pass, even where `|| true` would absorb a CEL error.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVALUATION_STEPS_PER_EXPRESSION, MAX_COMPREHENSION_NESTING } from '../../src/policy/cost.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'secret-token-for-hostile-expressions' });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const HUNDRED = JSON.stringify(Array.from({ length: 100 }, (_, i) => i));

/** A project with one dataset policy asserting `assert`, over ds-0001 and ds-0002. */
function project(assert: string): string {
  const dir = tempDir('steward-expressions-');
  writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [p.yaml]\nscope:\n  datasets: [ds-0001, ds-0002]\n');
  writeFileSync(
    path.join(dir, 'p.yaml'),
    [
      'policies:',
      '  - id: costly',
      '    title: Costly',
      '    severity: high',
      '    resource: dataset',
      `    params: { xs: ${HUNDRED} }`,
      `    assert: ${JSON.stringify(assert)}`,
      '',
    ].join('\n'),
  );
  return dir;
}

const nest = (fn: string, depth: number, inner: string): string =>
  depth === 0 ? inner : `params.xs.${fn}(v${depth}, ${nest(fn, depth - 1, inner)})`;

describe('expression cost', () => {
  it('nine nested all() is exit 2 at the fourth comprehension, before any request', async () => {
    expect(MAX_COMPREHENSION_NESTING).toBe(3);
    const assert = nest('all', 9, 'v1 >= 0');
    const r = await runCli(['check'], { cwd: project(assert), env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token } });
    expect(r.code).toBe(2);
    expect(sandbox.totalRequests()).toBe(0);
    // The 4th comprehension from the outside starts after three `params.xs.all(vN, ` prefixes.
    const column = 'p.yaml:7:'.length + 5 + 3 * 'params.xs.all(vN, '.length + 'params.xs'.length;
    expect(r.stderr.split('\n')[0]).toBe(
      `p.yaml:7:${column}: comprehensions nested 4 deep (at most 3): the cost is the product of the list sizes; split the check`,
    );
  });

  for (const [name, assert] of [
    ['three nested all() over 100 items (10^6 iterations)', nest('all', 3, 'v1 + v2 + v3 >= 0')],
    ['the same under `|| true`, which absorbs CEL errors', `${nest('exists', 3, 'v1 + v2 + v3 < 0')} || true`],
    ['three nested map() (a list of 10^6 elements)', `${nest('map', 3, 'v1')}.size() > 0`],
  ] as const) {
    it(`${name}: an evaluation error naming the policy on each dataset, exit 3`, async () => {
      const t0 = performance.now();
      const r = await runCli(['check', '--format', 'json'], {
        cwd: project(assert),
        env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token },
      });
      const seconds = (performance.now() - t0) / 1000;
      expect(r.code).toBe(3);
      const report = JSON.parse(r.stdout) as { findings: { policy: string; resource: { id: string }; status: string; message: string }[] };
      expect(report.findings.map((f) => [f.policy, f.resource.id, f.status])).toEqual([
        ['costly', 'ds-0001', 'error'],
        ['costly', 'ds-0002', 'error'],
      ]);
      expect(report.findings[0].message).toBe(
        `could not evaluate: policy costly: assert: evaluation budget exceeded: more than ${EVALUATION_STEPS_PER_EXPRESSION} loop iterations in one expression`,
      );
      console.log(`hostile: ${name}: exit 3 in ${seconds.toFixed(2)} s`);
    });
  }

  it('an ordinary two-level check (5,150 iterations) is within budget and passes', async () => {
    const r = await runCli(['check', '--format', 'json'], {
      cwd: project('params.xs.all(a, params.xs.exists(b, b == a))'),
      env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
