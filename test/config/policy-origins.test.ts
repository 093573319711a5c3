// Each `policies` entry keeps where it was written (config loader), each loaded policy knows
// which entry named its file (policy loader), and a run joins the two into PolicyResult.origin.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, POLICIES_FLAG_ORIGIN } from '../../src/config/index.js';
import { loadPolicies } from '../../src/policy/loader.js';
import { KINDS } from '../fixtures/kinds.js';

const POLICY = (id: string) => `policies:
  - id: ${id}
    title: t
    description: d
    severity: low
    resource: queue
    assert: "true"
`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'steward-origins-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('config policyOrigins', () => {
  it('a flow list: one position per item, file relative to the cwd', () => {
    const dir = project({ 'conf/steward.yaml': '# c\npolicies: [builtin, local/]\n', 'conf/local/a.yaml': POLICY('a') });
    const config = loadConfig({ cwd: dir, configPath: 'conf/steward.yaml' });
    expect(config.policyOrigins).toEqual([
      { file: 'conf/steward.yaml', line: 2, column: 12 },
      { file: 'conf/steward.yaml', line: 2, column: 21 },
    ]);
  });

  it('a block list and a single string', () => {
    const block = project({ 'steward.yaml': 'policies:\n  - builtin\n  - local/\n', 'local/a.yaml': POLICY('a') });
    expect(loadConfig({ cwd: block }).policyOrigins).toEqual([
      { file: 'steward.yaml', line: 2, column: 5 },
      { file: 'steward.yaml', line: 3, column: 5 },
    ]);
    const scalar = project({ 'steward.yaml': 'failOn: high\npolicies: builtin\n' });
    expect(loadConfig({ cwd: scalar }).policyOrigins).toEqual([{ file: 'steward.yaml', line: 2, column: 11 }]);
  });

  it('--policies is the origin of flag paths; the default pack has none', () => {
    const dir = project({ 'steward.yaml': 'policies: [builtin]\n', 'p/a.yaml': POLICY('a') });
    const flagged = loadConfig({ cwd: dir, overrides: { policies: ['p/', 'builtin'] } });
    expect(flagged.policyOrigins).toEqual([POLICIES_FLAG_ORIGIN, POLICIES_FLAG_ORIGIN]);
    expect(POLICIES_FLAG_ORIGIN).toEqual({ file: '--policies', line: 0, column: 0 });
    const none = project({ 'steward.yaml': 'failOn: high\n' });
    expect(loadConfig({ cwd: none }).policyOrigins).toEqual([null]);
  });
});

describe('loadPolicies pathIndex', () => {
  it('names the first path entry that reached each file', async () => {
    const dir = project({ 'a/one.yaml': POLICY('one'), 'a/two.yaml': POLICY('two'), 'b.yaml': POLICY('three') });
    const loaded = await loadPolicies(['b.yaml', 'a/', 'a/two.yaml'], { kinds: KINDS, cwd: dir });
    expect(loaded.map((p) => [p.id, p.pathIndex])).toEqual([
      ['three', 0],
      ['one', 1],
      ['two', 1],
    ]);
  });
});
