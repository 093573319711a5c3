// End to end: a run from a temp workspace holding a copy of demo/ (so the built-in pack lies
// outside it) plus one repo-local policy. SARIF and annotations must only name files of the
// workspace: pack findings sit on the `builtin` entry of steward.yaml, manifest findings on
// their manifest lines, the local policy's finding on its own line.
import { startSandbox } from '../../src/sandbox/index.js';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as Sarif from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../../src/library/index.js';
import { locationText } from '../../src/report/formatter.js';
import { selectAnnotations } from '../../src/report/github.js';
import { toJsonReport } from '../../src/report/json.js';
import type { Report } from '../../src/core/model.js';
import { toSarif } from '../../src/report/sarif.js';
import { BUILTIN_POLICIES, PLANTED } from '../cli/helpers.js';
import { reportValidator, sarifValidator } from './schema-validators.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const BUILTIN_ENTRY = { file: 'steward.yaml', line: 4, column: 12 };
const LOCAL_ENTRY = { file: 'steward.yaml', line: 4, column: 21 };
const LOCAL_POLICY = `policies:
  - id: local-no-invalid-calculated-fields
    title: No invalid calculated fields (local copy)
    description: Repo-local policy on a live kind.
    severity: low
    resource: calculatedFields
    assert: resource.invalid == 0
    message: "{{ resource.invalid }} invalid"
`;

let dir: string;
let report: Report;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'steward-pack-origin-'));
  cpSync(path.join(REPO, 'demo'), dir, { recursive: true });
  const config = path.join(dir, 'steward.yaml');
  const text = readFileSync(config, 'utf8');
  expect(text.split('\n')[3]).toBe('policies: [builtin]');
  writeFileSync(config, text.replace('policies: [builtin]', 'policies: [builtin, local/]'));
  mkdirSync(path.join(dir, 'local'));
  writeFileSync(path.join(dir, 'local/calculated-fields.yaml'), LOCAL_POLICY);
  const sandbox = await startSandbox();
  try {
    report = await check({ config, cwd: dir, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token });
  } finally {
    await sandbox.close();
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isManifest = (file: string) => file.startsWith('permissions/');

describe('a run with policies: [builtin, local/] from a workspace the pack lies outside of', () => {
  it('records each policy origin; text/json locations stay the policy files', () => {
    const local = report.policies.find((p) => p.id === 'local-no-invalid-calculated-fields')!;
    expect(local).toMatchObject({ location: { file: 'local/calculated-fields.yaml', line: 2, column: 5 }, origin: LOCAL_ENTRY });
    const pack = report.policies.filter((p) => p.id !== local.id);
    expect(pack).toHaveLength(BUILTIN_POLICIES);
    for (const p of pack) {
      expect(p.origin).toEqual(BUILTIN_ENTRY);
      expect(p.location!.file.startsWith('../')).toBe(true);
    }
    const live = report.findings.find((f) => f.policy === 'workflows-are-named')!;
    expect(live.location).toEqual(report.policies.find((p) => p.id === 'workflows-are-named')!.location);
    expect(reportValidator()(toJsonReport(report))).toEqual([]);
    expect((toJsonReport(report).policies as { origin: unknown }[])[0].origin).toEqual(BUILTIN_ENTRY);
  });

  it('SARIF: every uri is inside the workspace; pack findings at the builtin entry, naming the policy file', () => {
    const log = toSarif(report, { cwd: dir });
    expect(sarifValidator()(log)).toEqual([]);
    const run = log.runs[0];
    const results = run.results as Sarif.Result[];
    expect(results).toHaveLength(report.findings.filter((f) => f.status !== 'error').length);
    expect(results).toHaveLength(PLANTED.length + 2); // the planted violations, 1 waived, 1 from the local policy
    const policies = new Map(report.policies.map((p) => [p.id, p]));
    const counts = { manifest: 0, pack: 0, local: 0 };
    results.forEach((r, i) => {
      const f = report.findings.filter((x) => x.status !== 'error')[i];
      const physical = r.locations![0].physicalLocation!;
      const uri = physical.artifactLocation!.uri!;
      expect(uri.startsWith('..') || uri.startsWith('/')).toBe(false);
      if (isManifest(f.location!.file)) {
        counts.manifest++;
        expect([uri, physical.region]).toEqual([f.location!.file, { startLine: f.location!.line, startColumn: f.location!.column }]);
        expect(r.properties).not.toHaveProperty('policyLocation');
      } else if (f.policy === 'local-no-invalid-calculated-fields') {
        counts.local++;
        expect([uri, physical.region]).toEqual(['local/calculated-fields.yaml', { startLine: 2, startColumn: 5 }]);
        expect(r.properties).not.toHaveProperty('policyLocation');
      } else {
        counts.pack++;
        expect([uri, physical.region]).toEqual(['steward.yaml', { startLine: 4, startColumn: 12 }]);
        expect(r.properties!.policyLocation).toBe(locationText(policies.get(f.policy)!.location));
      }
    });
    // On a manifest: the queue and data-file findings, page 8002's drift, and card 7001's findings (its sharing is declared).
    expect(counts).toEqual({ manifest: 13, pack: PLANTED.length + 1 - 13, local: 1 });
    const rule = run.tool.driver.rules!.find((x) => x.id === 'workflows-are-named')!;
    const file = policies.get('workflows-are-named')!.location!.file;
    expect(rule.help!.text).toContain(`Defined in ${file} line`);
    expect(rule.help!.text).toContain('brought in by the policies entry at steward.yaml line 4');
  });

  it('annotations: only files of the workspace (manifest lines, local policies); pack findings without a manifest carry no file', () => {
    const { annotations } = selectAnnotations(report, 100);
    expect(annotations).toHaveLength(PLANTED.length + 1); // the waived finding is not annotated
    const places = annotations.map((a) => [a.properties.file, a.properties.startLine, a.properties.startColumn].join(':'));
    expect(places.filter((p) => p.startsWith('steward.yaml'))).toEqual([]);
    expect(places.filter((p) => p === '::')).toHaveLength(PLANTED.length - 12);
    expect(places.filter((p) => p === 'local/calculated-fields.yaml:2:5')).toHaveLength(1);
    expect(places.filter((p) => p.startsWith('permissions/'))).toHaveLength(12);
  });
});
