// The one decision "is this location a file of the repository", and how SARIF and annotations
// place findings of a policy defined outside it (the built-in pack) at the policy's origin.
import type * as Sarif from 'sarif';
import { describe, expect, it } from 'vitest';
import { formatGithub, selectAnnotations } from '../../src/report/github.js';
import type { PolicyResult, SourceLocation } from '../../src/core/model.js';
import { findingRepoLocation, insideRoot, policyRepoLocation } from '../../src/report/repo-location.js';
import { toSarif } from '../../src/report/sarif.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';
import { sarifValidator } from './schema-validators.js';

const at = (file: string, line = 3, column = 5): SourceLocation => ({ file, line, column });
const PACK_FILE = '../../_actions/acme/steward/v1/policies/report-schedules.yaml';
const ORIGIN = at('steward.yaml', 4, 12);

/** A live-kind policy of the pack (outside the root) brought in by `policies: [builtin]`. */
function packPolicy(overrides: Partial<PolicyResult> = {}): PolicyResult {
  return makePolicy({
    id: 'schedule-timezone-valid',
    severity: 'medium',
    resource: 'reportSchedule',
    location: at(PACK_FILE, 28, 5),
    origin: ORIGIN,
    ...overrides,
  });
}

const liveFinding = (location: SourceLocation | null = at(PACK_FILE, 28, 5)) =>
  makeFinding({
    policy: 'schedule-timezone-valid',
    severity: 'medium',
    resource: { kind: 'reportSchedule', id: '9004', name: null },
    path: null,
    message: 'Schedule 9004 has an unknown time zone',
    location,
  });

describe('insideRoot', () => {
  it('is true for relative paths below the root', () => {
    for (const f of ['steward.yaml', 'policies/x.yaml', './a.yaml', 'a..b/c.yaml']) expect(insideRoot(at(f))).toBe(true);
  });

  it('is false above the root, for absolute paths and inside installed packages', () => {
    for (const f of ['..', '../x.yaml', '../../work/main/policies/cards.yaml', '/abs/x.yaml', 'C:/x.yaml', 'C:\\x.yaml', '..\\x.yaml']) {
      expect(insideRoot(at(f)), f).toBe(false);
    }
    for (const f of ['node_modules/steward/policies/cards.yaml', 'packages/app/node_modules/steward/policies/q.yaml']) {
      expect(insideRoot(at(f)), f).toBe(false);
    }
  });
});

describe('findingRepoLocation / policyRepoLocation', () => {
  it('keeps a location inside the root (manifest lines, repo-local policies)', () => {
    const local = makePolicy({ location: at('policies/queues.yaml'), origin: at('steward.yaml', 4, 21) });
    expect(findingRepoLocation(makeFinding(), local)).toEqual({
      location: at('permissions/queues/finance-intake.yaml'),
      policyLocation: null,
    });
    expect(findingRepoLocation(makeFinding({ location: at('policies/queues.yaml') }), local)).toEqual({
      location: at('policies/queues.yaml'),
      policyLocation: null,
    });
    expect(policyRepoLocation(local)).toEqual({ location: at('policies/queues.yaml'), policyLocation: null });
  });

  it('moves a location in a policy file outside the root to the origin, naming the policy file', () => {
    expect(findingRepoLocation(liveFinding(), packPolicy())).toEqual({ location: ORIGIN, policyLocation: at(PACK_FILE, 28, 5) });
    // A finding without a location falls back to its policy's, which moves too.
    expect(findingRepoLocation(liveFinding(null), packPolicy())).toEqual({ location: ORIGIN, policyLocation: at(PACK_FILE, 28, 5) });
    expect(policyRepoLocation(packPolicy())).toEqual({ location: ORIGIN, policyLocation: at(PACK_FILE, 28, 5) });
    const installed = packPolicy({ location: at('node_modules/steward/policies/report-schedules.yaml', 28, 5) });
    expect(findingRepoLocation(liveFinding(installed.location), installed).location).toEqual(ORIGIN);
  });

  it('finds no place when the origin is not a file position inside the root', () => {
    for (const origin of [null, undefined, at('--policies', 0, 0), at('../elsewhere/steward.yaml', 4, 12)]) {
      expect(findingRepoLocation(liveFinding(), packPolicy({ origin })), String(origin?.file)).toEqual({
        location: null,
        policyLocation: null,
      });
    }
  });

  it('never moves a manifest outside the root to the policy origin', () => {
    const outsideManifest = makeFinding({ location: at('../shared/permissions/q.yaml', 2, 3) });
    const policy = makePolicy({ location: at(PACK_FILE), origin: ORIGIN });
    expect(findingRepoLocation(outsideManifest, policy)).toEqual({ location: null, policyLocation: null });
  });
});

function packReport() {
  const base = makeReport();
  return makeReport({
    policies: [...base.policies, packPolicy({ status: 'fail', evaluated: 1, violations: 1, resourceIds: ['9004'] })],
    findings: [...base.findings, liveFinding()],
  });
}

describe('sarif of a pack policy outside the root', () => {
  const log = toSarif(packReport(), { cwd: '/home/runner/work/repo/repo' });
  const run = log.runs[0];
  const result = run.results!.find((r) => r.ruleId === 'schedule-timezone-valid')!;

  it('locates the result at the origin and names the policy file in its properties', () => {
    expect(result.locations![0].physicalLocation).toEqual({
      artifactLocation: { uri: 'steward.yaml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 4, startColumn: 12 },
    });
    expect(result.properties).toMatchObject({ policyLocation: `${PACK_FILE}:28:5` });
    expect(sarifValidator()(log)).toEqual([]);
  });

  it("says in the rule's help where the policy is defined and where its findings are shown", () => {
    const rule = run.tool.driver.rules!.find((r) => r.id === 'schedule-timezone-valid') as Sarif.ReportingDescriptor;
    const said = `Defined in \`${PACK_FILE}\` line 28, outside the repository; brought in by the \`policies\` entry at \`steward.yaml\` line 4, where its findings on live resources are shown.`;
    expect(rule.help!.markdown!.endsWith(said)).toBe(true);
    expect(rule.help!.text.endsWith(said.replaceAll('`', ''))).toBe(true);
  });

  it('leaves results of policies inside the root alone (no policyLocation)', () => {
    for (const r of run.results!.filter((x) => x.ruleId !== 'schedule-timezone-valid')) {
      expect(r.locations![0].physicalLocation!.artifactLocation!.uri).toMatch(/^(permissions|policies)\//);
      expect(r.properties).not.toHaveProperty('policyLocation');
    }
  });

  it('keeps the outside location when nothing in the repository fits (a result needs one)', () => {
    const report = makeReport({ policies: [packPolicy({ origin: at('--policies', 0, 0) })], findings: [liveFinding()] });
    const r = toSarif(report).runs[0].results![0];
    expect(r.locations![0].physicalLocation!.artifactLocation!.uri).toBe(PACK_FILE);
    expect(r.properties).not.toHaveProperty('policyLocation');
  });
});

describe('annotations of a pack policy outside the root', () => {
  it('carry no file: stacked on one steward.yaml line they told nothing (SARIF alone keeps the origin)', () => {
    const line = formatGithub(packReport(), { color: false })
      .split('\n')
      .find((l) => l.includes('schedule-timezone-valid'));
    expect(line).toBe('::warning title=schedule-timezone-valid (medium)::reportSchedule/9004: Schedule 9004 has an unknown time zone');
    const noOrigin = makeReport({ policies: [packPolicy({ origin: null })], findings: [liveFinding()] });
    expect(selectAnnotations(noOrigin).annotations.map((a) => a.properties)).toEqual([{ title: 'schedule-timezone-valid (medium)' }]);
  });

  it('a policy error of a pack policy carries no file either', () => {
    const report = makeReport({ policies: [packPolicy({ status: 'error', error: 'GET /api/x answered 500' })], findings: [] });
    expect(selectAnnotations(report).annotations).toEqual([
      {
        level: 'error',
        message: 'could not evaluate: GET /api/x answered 500',
        properties: { title: 'schedule-timezone-valid (medium)' },
      },
    ]);
  });
});
