// Waivers an attacker (or a hurried adopter) could slip through: catch-alls spelled another way,
// and `steward waive` turning an id that holds `*` or `?` into a pattern, or writing what the
// config's waiver rules forbid.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { globMatches, literalGlob, matchesEverything } from '../../src/core/glob.js';
import type { InputError } from '../../src/core/problem.js';
import { applyWaivers, parseWaivers } from '../../src/engine/waivers.js';
import { waive } from '../../src/library/waive.js';
import { makeFinding } from '../fixtures/report.js';
import { runCli, tempDir } from '../cli/helpers.js';

const waiverText = (resource: string) => `waivers:\n  - policy: p\n    resource: "${resource}"\n    reason: why\n    owner: me\n    expires: 2099-01-31\n`;

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    return (e as InputError).problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`);
  }
  return [];
}

describe('catch-all waivers, by what they match', () => {
  it.each(['*', '**', '?*', '*?', '*?*', '???*', '?'])('%s names no resource: refused when allowCatchAll is false, listed as catch-all otherwise', (glob) => {
    expect(matchesEverything(glob)).toBe(true);
    expect(problemsOf(() => parseWaivers(waiverText(glob), 'w.yaml', { allowCatchAll: false }))).toEqual([
      `w.yaml:3:15: resource "${glob}" waives every resource of p, and waiverRules.allowCatchAll is false: name the resources`,
    ]);
    const waivers = parseWaivers(waiverText(glob), 'w.yaml');
    const outcome = applyWaivers([makeFinding({ policy: 'p', resource: { kind: 'queue', id: 'q', name: null } })], waivers, new Date('2026-11-25T00:00:00Z'));
    expect(outcome.catchAll).toEqual(waivers);
  });

  it.each(['wf-*', '*-prod', 'q?', '\\*', '\\?\\*'])('%s names something literal: not a catch-all', (glob) => {
    expect(matchesEverything(glob)).toBe(false);
    expect(problemsOf(() => parseWaivers(waiverText(glob.replaceAll('\\', '\\\\')), 'w.yaml', { allowCatchAll: false }))).toEqual([]);
  });
});

describe('literal ids in globs', () => {
  it('an escaped id matches itself only', () => {
    expect(literalGlob('wf-*')).toBe('wf-\\*');
    expect(globMatches(literalGlob('wf-*'), 'wf-*')).toBe(true);
    expect(globMatches(literalGlob('wf-*'), 'wf-1')).toBe(false);
    expect(globMatches(literalGlob('a?b\\c'), 'a?b\\c')).toBe(true);
    expect(globMatches(literalGlob('a?b\\c'), 'axb\\c')).toBe(false);
    expect(matchesEverything(literalGlob('*'))).toBe(false);
  });

  it('a waiver naming an escaped id waives that id alone, not what its characters would match as a glob', () => {
    const [star, question] = parseWaivers(`${waiverText(literalGlob('wf-*').replaceAll('\\', '\\\\'))}${waiverText(literalGlob('q?')).replace('waivers:\n', '').replaceAll('\\', '\\\\')}`, 'w.yaml');
    expect([star!.resource, question!.resource]).toEqual(['wf-\\*', 'q\\?']);
    const ids = ['wf-*', 'wf-1', 'q?', 'qa'];
    const out = applyWaivers(ids.map((id) => makeFinding({ policy: 'p', resource: { kind: 'queue', id, name: null } })), [star!, question!], new Date('2026-11-25T00:00:00Z'));
    expect(out.findings.map((f) => [f.resource.id, f.status])).toEqual([
      ['wf-*', 'waived'],
      ['wf-1', 'violation'],
      ['q?', 'waived'],
      ['qa', 'violation'],
    ]);
  });
});

describe('steward waive', () => {
  function reportWith(ids: string[]): string {
    const dir = tempDir('steward-waive-');
    const file = path.join(dir, 'report.json');
    writeFileSync(file, JSON.stringify({ findings: ids.map((id) => makeFinding({ policy: 'workflows-are-named', resource: { kind: 'workflow', id, name: null }, path: null })) }));
    return file;
  }

  it('writes ids literally: a waiver for id wf-* waives wf-* only, one for id * is no catch-all', () => {
    const report = reportWith(['wf-*', '*']);
    const file = path.join(path.dirname(report), 'waivers.yaml');
    const { added } = waive({ report, waivers: file, shown: (f) => path.basename(f), owner: 'me', reason: 'why', expires: '2099-01-31', now: new Date('2026-11-25T00:00:00Z') });
    expect(added.map((w) => w.resource)).toEqual(['wf-\\*', '\\*']);
    const written = parseWaivers(readFileSync(file, 'utf8'), 'waivers.yaml', { allowCatchAll: false });
    const findings = ['wf-*', 'wf-1', '*', 'x'].map((id) => makeFinding({ policy: 'workflows-are-named', resource: { kind: 'workflow', id, name: null }, path: null }));
    const outcome = applyWaivers(findings, written, new Date('2026-11-25T00:00:00Z'));
    expect(outcome.findings.map((f) => [f.resource.id, f.status])).toEqual([
      ['wf-*', 'waived'],
      ['wf-1', 'violation'],
      ['*', 'waived'],
      ['x', 'violation'],
    ]);
    expect(outcome.catchAll).toEqual([]);
  });

  it('applies the config’s waiver rules to what it writes: a required field missing is exit 2, the file untouched', async () => {
    const report = reportWith(['wf-1']);
    const dir = path.dirname(report);
    writeFileSync(path.join(dir, 'steward.yaml'), 'waivers: waivers.yaml\nwaiverRules: { require: [ticket] }\n');
    writeFileSync(path.join(dir, 'waivers.yaml'), '# reviewed quarterly\nwaivers: []\n');
    const r = await runCli(['waive', '--from', 'report.json', '--owner', 'me', '--reason', 'why', '--expires', '2099-01-31'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"ticket" is required (waiverRules.require)');
    expect(readFileSync(path.join(dir, 'waivers.yaml'), 'utf8')).toBe('# reviewed quarterly\nwaivers: []\n');
    const ok = await runCli(['waive', '--from', 'report.json', '--owner', 'me', '--reason', 'why', '--expires', '2099-01-31', '--ticket', 'RISK-1'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(readFileSync(path.join(dir, 'waivers.yaml'), 'utf8')).toContain('ticket: RISK-1');
  });
});
