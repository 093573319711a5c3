// The sandbox's token is a secret of the run like STEWARD_TOKEN: once `--sandbox` starts one, the
// CLI's one secret set holds its token, so no line on stdout or stderr, in any format and with
// --verbose, and no error message that echoes it, carries it.
import { describe, expect, it } from 'vitest';
import { type CliIo, fail } from '../../src/cli/io.js';
import { exitCodeForError } from '../../src/cli/main.js';
import { withTarget } from '../../src/cli/run-target.js';
import { FORMATS } from '../../src/report/index.js';
import { runCli } from '../cli/helpers.js';

/** The sandbox's tokens are `sbx_` and 32 hex digits (src/sandbox/server.ts). */
const SANDBOX_TOKEN = /sbx_[0-9a-f]{32}/;

function capturingIo(): CliIo & { out: () => string } {
  let text = '';
  return {
    stdout: { write: (t: string) => (text += t) },
    stderr: { write: (t: string) => (text += t) },
    env: {},
    cwd: process.cwd(),
    out: () => text,
  };
}

describe('the sandbox token', () => {
  it('is in the io’s secret set while the sandbox runs: an error echoing it is printed redacted', async () => {
    const io = capturingIo();
    let token = '';
    const error = await withTarget({ sandbox: true }, io, async (options) => {
      token = options.token!;
      fail(io, `a server echoed ${token}`);
      return new Error(`the instance answered 500: {"echo":"${token}"}`);
    });
    expect(token).toMatch(SANDBOX_TOKEN);
    expect(exitCodeForError(error, io)).toBe(3);
    expect(io.out()).toBe('a server echoed ***\nsteward: the instance answered 500: {"echo":"***"}\n');
  });

  it.each(FORMATS)('never appears on stdout or stderr of check --sandbox --verbose --format %s', async (format) => {
    const { code, stdout, stderr } = await runCli(['check', '--sandbox', '--verbose', '--format', format]);
    expect(code).toBe(0);
    // --verbose logged every request, so the test sees the run's whole traffic.
    expect(stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/api\/content\/v1\/reportschedules\?.* → 200/);
    expect(stdout.length).toBeGreaterThan(100);
    expect(stdout).not.toMatch(SANDBOX_TOKEN);
    expect(stderr).not.toMatch(SANDBOX_TOKEN);
  });
});
