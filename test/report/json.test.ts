import { describe, expect, it } from 'vitest';
import { FORMATS, formatReport, isFormat } from '../../src/report/index.js';
import { formatJson } from '../../src/report/json.js';
import { makeFinding, makePassingReport, makeReport } from '../fixtures/report.js';
import { reportValidator } from './schema-validators.js';

const validate = reportValidator();

describe('json format', () => {
  it('prints the report as valid JSON with 2-space indent and the §8 key order', () => {
    const report = makeReport();
    const out = formatJson(report, { color: false });
    expect(out.startsWith('{\n  "schemaVersion": 1,\n  "tool": {\n    "name": "steward",')).toBe(
      true,
    );
    expect(out.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(out);
    expect(Object.keys(parsed)).toEqual([
      'schemaVersion',
      'tool',
      'instance',
      'startedAt',
      'durationMs',
      'failOn',
      'summary',
      'policies',
      'findings',
      'waivers',
      'overrides',
      'frameworks',
      'baseline',
      'fixed',
      'history',
      'coverage',
      'http',
    ]);
    expect(Object.keys(parsed.summary.bySeverity)).toEqual([
      'critical',
      'high',
      'medium',
      'low',
      'info',
    ]);
    expect(Object.keys(parsed.findings[0])).toEqual([
      'policy',
      'severity',
      'status',
      'resource',
      'path',
      'message',
      'location',
      'fingerprint',
      'baseline',
      'fix',
      'waiver',
      'lifecycle',
      'firstSeen',
    ]);
    expect(Object.keys(parsed.policies[0]).slice(0, 7)).toEqual([
      'id',
      'severity',
      'resource',
      'status',
      'evaluated',
      'violations',
      'error',
    ]);
    expect(parsed.findings).toHaveLength(report.findings.length);
    expect(parsed.summary).toEqual(report.summary);
  });

  it('writes the same text whatever order the engine built the objects in', () => {
    const report = makeReport();
    const shuffled = JSON.parse(JSON.stringify(report), (_k, v) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).reverse())
        : v,
    );
    expect(formatJson(shuffled, { color: false })).toBe(formatJson(report, { color: false }));
  });

  it('validates against schema/report.schema.json, with and without a baseline', () => {
    expect(validate(JSON.parse(formatJson(makeReport(), { color: false })))).toEqual([]);
    const withBaseline = makeReport({
      baseline: { file: 'baseline.json', resolved: ['0123abcd'] },
      findings: [
        makeFinding({ baseline: 'new', fix: { revoke: ['ADMIN'] } }),
        makeFinding({ baseline: 'known' }),
      ],
    });
    expect(validate(JSON.parse(formatJson(withBaseline, { color: false })))).toEqual([]);
    expect(validate(JSON.parse(formatJson(makePassingReport(), { color: false })))).toEqual([]);
  });

  it('schema rejects a missing field, a wrong enum and a waived finding without its waiver', () => {
    const good = JSON.parse(formatJson(makeReport(), { color: false }));
    const noGate = structuredClone(good);
    delete noGate.summary.gate;
    expect(validate(noGate).map((e) => e.params)).toContainEqual({ missingProperty: 'gate' });
    const noFingerprint = structuredClone(good);
    delete noFingerprint.findings[2].fingerprint;
    expect(validate(noFingerprint).map((e) => e.instancePath)).toContain('/findings/2');
    const badStatus = structuredClone(good);
    badStatus.findings[0].status = 'failed';
    expect(validate(badStatus).map((e) => e.instancePath)).toContain('/findings/0/status');
    const waivedWithout = structuredClone(good);
    waivedWithout.findings[1].waiver = null;
    expect(validate(waivedWithout).map((e) => e.instancePath)).toContain('/findings/1/waiver');
  });
});

describe('format registry', () => {
  it('has the formats DESIGN promises (and any added since) and renders the fixture in each', () => {
    expect(FORMATS).toEqual(expect.arrayContaining(['text', 'json', 'sarif', 'junit', 'markdown', 'github', 'html']));
    expect(isFormat('sarif')).toBe(true);
    expect(isFormat('yaml')).toBe(false);
    const report = makeReport();
    for (const format of FORMATS) {
      const out = formatReport(format, report, { color: false });
      expect(out.length, format).toBeGreaterThan(0);
      expect(out.endsWith('\n'), format).toBe(true);
    }
  });
});
