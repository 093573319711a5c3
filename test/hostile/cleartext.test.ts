// The token never crosses a network in clear unasked: an http:// base or workflow URL to a host
// that is not this machine is exit 2 before any request, unless instance.allowInsecureHttp says
// so, and then every run warns. Loopback (the sandbox, a local tunnel) stays plain http.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { InputError } from '../../src/core/problem.js';
import { runCli, tempDir } from '../cli/helpers.js';

function project(instance: string): string {
  const dir = tempDir('steward-cleartext-');
  writeFileSync(path.join(dir, 'steward.yaml'), `policies: [builtin]\ninstance: ${instance}\n`);
  return dir;
}

const problems = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e.problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`);
    throw e;
  }
  return [];
};

describe('a base URL over plain http', () => {
  it('to a remote host is exit 2 at its position, before any request', async () => {
    const dir = project('{ baseUrl: "http://acme.example.com" }');
    const r = await runCli(['check'], { cwd: dir, env: { STEWARD_TOKEN: 'tok-cleartext-1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'steward.yaml:2:22: instance.baseUrl uses http:// to acme.example.com, which is not this machine: the token would cross the network in clear; use https://, or set instance.allowInsecureHttp: true (warned on every run)',
    );
    expect(r.stderr).toContain('nothing was sent to the API');
  });

  it('from the environment or a flag is refused the same way, naming where it came from', () => {
    const dir = project('{}');
    expect(problems(() => loadConfig({ cwd: dir, env: { STEWARD_BASE_URL: 'http://10.1.2.3:8080' } }))).toEqual([
      'STEWARD_BASE_URL:0:0: uses http:// to 10.1.2.3, which is not this machine: the token would cross the network in clear; use https://, or set instance.allowInsecureHttp: true (warned on every run)',
    ]);
    expect(problems(() => loadConfig({ cwd: dir, env: {}, overrides: { workflowUrl: 'http://api.example.com' } }))[0]).toMatch(/^--workflow-url:0:0: uses http:\/\/ to api\.example\.com/);
  });

  it('allowed by instance.allowInsecureHttp: accepted, with a warning every run carries', () => {
    const dir = project('{ baseUrl: "http://acme.example.com", allowInsecureHttp: true }');
    const config = loadConfig({ cwd: dir, env: {} });
    expect(config.instance.baseUrl).toBe('http://acme.example.com');
    expect(config.warnings).toEqual(['http://acme.example.com is reached over plain http (instance.allowInsecureHttp): the token crosses the network in clear']);
  });

  it.each(['http://127.0.0.1:8080', 'http://localhost:3000', 'http://[::1]:9000', 'https://acme.example.com'])('%s is accepted without a warning', (url) => {
    const config = loadConfig({ cwd: project('{}'), env: { STEWARD_BASE_URL: url } });
    expect(config.warnings).toEqual([]);
  });
});
