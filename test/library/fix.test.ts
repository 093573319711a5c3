// The fix session in the library: the Action's path (fixWithin, on its own evaluation) holds the
// journal's lock while it applies, as `steward fix --apply` does, so two runs never interleave
// their writes; and a session refuses to apply when the gate is in error.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFiles } from '../../src/io/file-lock.js';
import { evaluateOn, fixWithin, NOT_APPLIED_ON_ERRORS, prepareRun, withConnection } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

async function withEvaluation<T>(fn: (run: Awaited<ReturnType<typeof evaluateOn>>, connection: Parameters<typeof fixWithin>[1], dir: string) => Promise<T>): Promise<T> {
  const dir = copyDemo();
  const options = { config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, only: ['queue-no-admin-for-users'] };
  const prepared = await prepareRun(options);
  return withConnection(options, prepared, async (connection) => fn(await evaluateOn(options, prepared, connection), connection, dir));
}

describe('fixWithin', () => {
  it('apply waits for no one: a journal held by another run is exit 2 naming the holder, nothing sent', async () => {
    await withEvaluation(async (evaluation, connection, dir) => {
      const journal = path.join(dir, 'journal.jsonl');
      const held = lockFiles([journal], 'another fix --apply', (f) => path.relative(dir, f));
      sandbox.resetCounts();
      try {
        await expect(fixWithin(evaluation, connection, { mode: 'apply', root: dir, journal })).rejects.toThrow(/another fix --apply/);
        expect(sandbox.received).toEqual([]);
      } finally {
        held.release();
      }
      const outcome = await fixWithin(evaluation, connection, { mode: 'apply', root: dir, journal });
      expect(outcome.applied?.applied.length).toBeGreaterThan(0);
      expect(sandbox.received.length).toBe(outcome.applied!.applied.length);
    });
  });

  it('a run with an evaluation error plans but applies nothing', async () => {
    await withEvaluation(async (evaluation, connection, dir) => {
      const errored = { ...evaluation, report: { ...evaluation.report, summary: { ...evaluation.report.summary, gate: 'error' as const } } };
      sandbox.resetCounts();
      const outcome = await fixWithin(errored, connection, { mode: 'apply', root: dir, journal: path.join(dir, 'j.jsonl') });
      expect(outcome.plan.changes.length).toBeGreaterThan(0);
      expect([outcome.applied, outcome.notApplied]).toEqual([null, NOT_APPLIED_ON_ERRORS]);
      expect(sandbox.received).toEqual([]);
    });
  });
});
