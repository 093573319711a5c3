// Report formatters are linear in findings: 50,000 findings of one policy (the shape that made
// the HTML grouping quadratic: 65 s at 100,000, and overflowed the text format's call stack)
// format within 20x the JSON formatter's time on the same report, same process.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { FORMATS, formatReport } from '../../src/report/index.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';

const N = 50_000;

function bigReport(): Report {
  const policy = makePolicy({ id: 'p', resourceIds: [] });
  const findings = Array.from({ length: N }, (_, i) =>
    makeFinding({ policy: 'p', resource: { kind: 'queue', id: `q-${i}`, name: null }, message: `User ${i} holds ADMIN on queue q-${i}`, fingerprint: `fp-${i}` }),
  );
  return makeReport({ policies: [policy], findings });
}

function ms(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

describe('formatters are linear in findings', () => {
  const report = bigReport();
  // JSON warmed up first: the floor is its fast time, and each format's cold run is held against it.
  formatReport('json', report, { color: false });
  const json = Math.max(ms(() => formatReport('json', report, { color: false })), 1);

  // A generous bound against noise on 2 cores and instrumented runs (Stryker: up to 8x): a quadratic
  // formatter takes 46x the JSON's at this size, and more with every finding added.
  const BOUND = 20;
  it.each(FORMATS.filter((f) => f !== 'json'))('%s: 50,000 findings of one policy within 20x the JSON report', (format) => {
    let out = '';
    const took = ms(() => {
      out = formatReport(format, report, { color: false });
    });
    expect(out.length).toBeGreaterThan(0);
    console.log(`linear: ${format} ${took.toFixed(0)} ms, json ${json.toFixed(0)} ms, ${(took / json).toFixed(2)}x`);
    expect(took / json).toBeLessThan(BOUND);
  }, 60_000);
});
