// One cause, one message: a run-wide failure (the instance refuses the token, the host cannot be
// reached) stops the run's requests and is said once, with what to do, in every format and on
// stderr; errors of one policy's own (a 500 on one endpoint) are still listed where they belong.
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, sandboxEnv } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-one-cause-right' });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const DEMO = ['--config', 'demo/steward.yaml'];
const TOKEN_CAUSE =
  'steward: could not evaluate: the instance refused the developer token (401 Unauthorized): set STEWARD_TOKEN to a valid token of this instance (tokens expire; `steward doctor` checks it). ' +
  'the workflow API refused the workflow token (401 Unauthorized): set STEWARD_WORKFLOW_TOKEN to a valid token of this instance (tokens expire; `steward doctor` checks it).';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a run-wide cause is said once', () => {
  it('a wrong token: exit 3, one stderr line naming the cause per host and what to do, one request per host, no per-policy 401 in the text report', async () => {
    const r = await runCli(['check', ...DEMO], { env: sandboxEnv(sandbox, 'tok-one-cause-wrong') });
    expect(r.code).toBe(3);
    const policies = Number(/(\d+) policies could not be evaluated/.exec(r.stderr)?.[1]);
    expect(policies).toBeGreaterThan(30);
    expect(r.stderr).toBe(`${TOKEN_CAUSE} ${policies} policies could not be evaluated.\n`);
    // One request per host: the instance refused the token, and the workflow API (its own host and token latch) did too.
    expect(sandbox.totalRequests()).toBe(2);
    // The stop note alone, once per host (`401 Unauthorized`: a bare 401 may be in the sandbox's port).
    expect(r.stdout.match(/401 Unauthorized/g)).toHaveLength(2);
    expect(r.stdout).toContain('The run was stopped:\n  the instance refused the developer token (401 Unauthorized)');
    expect(r.stdout.split('\n').length).toBeLessThan(60);
  });

  it('the JSON report keeps every error, each marked runWide, and names the stop once; markdown and annotations say it once', async () => {
    const env = sandboxEnv(sandbox, 'tok-one-cause-wrong');
    const json = JSON.parse((await runCli(['check', ...DEMO, '--format', 'json'], { env })).stdout) as Report;
    // Two causes, each once: the instance and the workflow API (its own token) both refused.
    expect(json.stoppedBy).toEqual([
      { cause: 'the instance refused the developer token (401 Unauthorized)', advice: 'set STEWARD_TOKEN to a valid token of this instance (tokens expire; `steward doctor` checks it)' },
      { cause: 'the workflow API refused the workflow token (401 Unauthorized)', advice: 'set STEWARD_WORKFLOW_TOKEN to a valid token of this instance (tokens expire; `steward doctor` checks it)' },
    ]);
    const errors = json.findings.filter((f) => f.status === 'error');
    expect(errors.length).toBeGreaterThan(40);
    expect(errors.every((f) => f.runWide === true)).toBe(true);
    const md = (await runCli(['check', ...DEMO, '--format', 'markdown'], { env })).stdout;
    expect(md.match(/401 Unauthorized/g)).toHaveLength(2);
    expect(md).not.toContain('**Could not evaluate**');
    const github = (await runCli(['check', ...DEMO, '--format', 'github'], { env })).stdout;
    expect(github.split('\n').filter((l) => l.startsWith('::error') && l.includes('401'))).toEqual([
      expect.stringMatching(/^::error title=run stopped::the instance refused the developer token \(401 Unauthorized\): set STEWARD_TOKEN/),
    ]);
  });

  it('a refused connection: one attempt in the whole run (no retries per operation), one message naming the base URL to check', async () => {
    const port = await closedPort();
    const r = await runCli(['check', ...DEMO, '--base-url', `http://127.0.0.1:${port}`, '--verbose'], { env: { STEWARD_TOKEN: 'x' } });
    expect(r.code).toBe(3);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => /^(GET|POST) /.test(l))).toHaveLength(1);
    expect(lines.filter((l) => !/^(GET|POST) /.test(l))).toEqual([
      expect.stringMatching(
        /^steward: could not evaluate: the instance cannot be reached: it refused the connection \(ECONNREFUSED\): check the base URL \(--base-url, STEWARD_BASE_URL or instance\.baseUrl\) and that this machine can reach it\. \d+ policies could not be evaluated\.$/,
      ),
    ]);
  });

  it("an error of one endpoint is no run-wide cause: listed under its policy, no stop", async () => {
    sandbox.scriptFault('getDatasetPermissions', { status: 403 }, 1000);
    const r = await runCli(['check', ...DEMO, '--only', 'certified-datasets-need-owner-group', '--format', 'json'], { env: sandboxEnv(sandbox) });
    sandbox.scriptFault('getDatasetPermissions', { status: 403 }, 0);
    expect(r.code).toBe(3);
    const json = JSON.parse(r.stdout) as Report;
    expect(json.stoppedBy).toBeUndefined();
    const errors = json.findings.filter((f) => f.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.some((f) => f.runWide)).toBe(false);
    expect(r.stderr).toMatch(/^steward: could not evaluate 1 policy \(the gate fails closed\):\n {2}could not read dataset /);
  });
});
