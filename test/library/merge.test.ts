// Merging the reports of several instances (`instances:`, `steward merge`): what each section of
// the merged report says about the waivers and the baseline of the instances together.
import { describe, expect, it } from 'vitest';
import type { Report, WaiverRef } from '../../src/core/model.js';
import type { InputError } from '../../src/core/problem.js';
import { mergeReports, stampInstance } from '../../src/library/merge.js';
import { makeReport, STALE_WAIVER } from '../fixtures/report.js';

const USED: WaiverRef = { ...STALE_WAIVER, resource: '42', reason: 'used on prod only' };
const EMPTY_WAIVERS = { expired: [], stale: [], catchAll: [], active: [], expiring: [] };

/** One instance's report: `stale` among its active waivers matched nothing there. */
const on = (name: string, url: string, active: WaiverRef[], stale: WaiverRef[]): Report =>
  stampInstance(makeReport({ instance: url, waivers: { ...EMPTY_WAIVERS, active, stale } }), name);

describe('merged waivers', () => {
  it('a waiver is stale only when it matched nothing on every instance', () => {
    const prod = on('prod', 'https://prod.example.com', [USED, STALE_WAIVER], [STALE_WAIVER]);
    const staging = on('staging', 'https://stg.example.com', [USED, STALE_WAIVER], [USED, STALE_WAIVER]);
    const merged = mergeReports([prod, staging]);
    expect(merged.waivers.stale.map((w) => w.reason)).toEqual([STALE_WAIVER.reason]);
    expect(merged.waivers.active.map((w) => w.reason)).toEqual([USED.reason, STALE_WAIVER.reason]);
    // The same two the other way round.
    expect(mergeReports([staging, prod]).waivers.stale.map((w) => w.reason)).toEqual([STALE_WAIVER.reason]);
  });
});

describe('merged baseline', () => {
  it('lists each instance\'s resolved entries in turn, each naming its instance', () => {
    const withBaseline = (name: string, url: string, fingerprint: string) => {
      const r = makeReport({ instance: url, baseline: { file: 'b.json', resolved: [fingerprint], resolvedEntries: [{ fingerprint }] } });
      return stampInstance(r, name);
    };
    const merged = mergeReports([withBaseline('prod', 'https://prod.example.com', 'aa'), withBaseline('staging', 'https://stg.example.com', 'bb')]);
    expect(merged.baseline).toEqual({
      file: 'b.json',
      resolved: ['aa', 'bb'],
      resolvedEntries: [
        { fingerprint: 'aa', instance: 'prod' },
        { fingerprint: 'bb', instance: 'staging' },
      ],
    });
  });
});

describe('one instance twice', () => {
  const problemsOf = (reports: Report[], labels?: string[]) => {
    try {
      mergeReports(reports, { labels });
    } catch (e) {
      return (e as InputError).problems.map((p) => `${p.file}: ${p.message}`);
    }
    return [];
  };
  const prod = () => on('prod', 'https://prod.example.com', [], []);
  const staging = () => on('staging', 'https://stg.example.com', [], []);

  it('is one problem for each report that brings it again, naming the report that brought it first', () => {
    const hint = 'merge one report per instance, or pass --allow-same-instance';
    expect(problemsOf([prod(), staging(), prod(), prod()], ['a.json', 'b.json', 'c.json', 'd.json'])).toEqual([
      `c.json: instance prod (https://prod.example.com): the merge already holds an instance named prod (a.json): ${hint}`,
      `d.json: instance prod (https://prod.example.com): the merge already holds an instance named prod (a.json): ${hint}`,
    ]);
    expect(problemsOf([prod(), prod()])).toEqual([`report 2: instance prod (https://prod.example.com): the merge already holds an instance named prod (report 1): ${hint}`]);
    // One name at two addresses (two configs of one instance each call theirs default), one address under two names.
    const elsewhere = on('prod', 'https://prod-eu.example.com', [], []);
    const renamed = on('production', 'https://prod.example.com', [], []);
    expect(problemsOf([prod(), elsewhere, renamed], ['a.json', 'b.json', 'c.json'])).toEqual([
      `b.json: instance prod (https://prod-eu.example.com): the merge already holds an instance named prod (a.json, https://prod.example.com): ${hint}`,
      `c.json: instance production (https://prod.example.com): the merge already holds https://prod.example.com (a.json, as prod): ${hint}`,
    ]);
    expect(mergeReports([prod(), prod()], { allowSameInstance: true }).instances?.map((i) => i.name)).toEqual(['prod', 'prod']);
  });

  it('is named by its report when an earlier report holds several instances', () => {
    const fleet = mergeReports([prod(), staging()]);
    expect(problemsOf([fleet, staging()], ['fleet.json', 'staging.json'])).toEqual([
      'staging.json: instance staging (https://stg.example.com): the merge already holds an instance named staging (fleet.json): merge one report per instance, or pass --allow-same-instance',
    ]);
  });
});
