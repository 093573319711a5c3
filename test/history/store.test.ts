// What a recording keeps holds no secret of the run: the strings it writes (keptStrings) are
// searched for every form of each, and the report is redacted before it is recorded when one is
// there. Planted in each string of a report in turn, a token never reaches the file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { SecretSet, secretForms } from '../../src/core/redact.js';
import { listRuns, openHistory, openRunHistory, recordReport, runContents, TREND_RUNS, trendOf } from '../../src/history/index.js';
import { keptStrings } from '../../src/history/store.js';
import { tempDir } from '../cli/helpers.js';
import { sampleReport } from './sample-report.js';

const TOKEN = 'tok-3f9a1c7e5b2d-secret';

/** Strings read back as a date or one of a closed set: a token there is a broken report, not an echo. */
const CLOSED = new Set(['startedAt', 'firstSeen', 'severity', 'status', 'gate', 'failOn', 'lifecycle', 'enforcement']);

/** The path of every other string in `value`. */
function stringPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return CLOSED.has(String(at.at(-1))) ? [] : [at];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, Array.isArray(value) ? Number(k) : k]));
}

/** `report` with TOKEN, base64 inside a Basic credential, appended to the string at `where`. */
function planted(report: Report, where: (string | number)[]): Report {
  const copy = structuredClone(report);
  let parent = copy as unknown as Record<string | number, unknown>;
  for (const key of where.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = where.at(-1)!;
  parent[last] = `${String(parent[last])} Basic ${Buffer.from(`svc:${TOKEN}`).toString('base64')}`;
  return copy;
}

/** Each form of TOKEN the file holds. */
const formsIn = (file: string): string[] => {
  const bytes = readFileSync(file, 'latin1');
  return secretForms([TOKEN]).filter((form) => bytes.includes(form));
};

async function recorded(report: Report, next?: Report): Promise<{ file: string; first: Report; second: Report | null }> {
  const file = path.join(tempDir('steward-history-secrets-'), 'h.sqlite');
  const history = await openRunHistory(file, 'h.sqlite', 'test', SecretSet.of(TOKEN));
  try {
    const first = await recordReport(history, report, 'hash');
    const second = next ? await recordReport(history, next, 'hash') : null;
    return { file, first, second };
  } finally {
    await history.close();
  }
}

describe('keptStrings and a recording', () => {
  const report = sampleReport(2);
  report.findings[0]!.resource.name = 'Sales';
  report.findings[1]!.status = 'waived';
  const where = stringPaths(report);

  it('the strings a recording writes, in order: the run, its policies, its tracked findings', () => {
    expect([...keptStrings(report)]).toEqual([
      '2026-11-01T00:00:00.000Z', 'https://example.test', '0.0.0-test', 'fail', 'low',
      'p-one', 'fail',
      'fp-p-one-0', 'p-one', 'dataset', 'ds-0', 'Sales', 'high', 'violation 0', 'violation',
      'fp-p-one-1', 'p-one', 'dataset', 'ds-1', 'low', 'violation 1', 'waived',
    ]);
  });

  it.each(where.map((w) => [w.join('.'), w]))('a token echoed in %s: no form of it in the history file', async (_, at) => {
    const { file } = await recorded(planted(report, at as (string | number)[]));
    expect(formsIn(file)).toEqual([]);
  });

  it('a token in a kept string: the run is recorded redacted, the next run finds the same findings open', async () => {
    const at = ['findings', 0, 'message'];
    const next = planted({ ...report, startedAt: '2026-11-02T00:00:00.000Z' }, at);
    const { file, first, second } = await recorded(planted(report, at), next);
    expect(formsIn(file)).toEqual([]);
    expect(first.findings[0]!.message).toBe('violation 0 Basic c3ZjOn***');
    expect(second!.findings.map((f) => f.lifecycle)).toEqual(['open', 'open']);
    expect(second!.history!.new).toBe(0);
  });

  it('a token only where the history keeps nothing (a description, a path): the report is left as it came', async () => {
    const given = planted(report, ['policies', 0, 'description']);
    given.findings[1]!.path = `permissions[${TOKEN}]`;
    const { file, first } = await recorded(given);
    expect(formsIn(file)).toEqual([]);
    expect(first.policies[0]!.description).toContain('Basic c3ZjOn');
    expect(first.findings[1]!.path).toBe(`permissions[${TOKEN}]`);
  });
});

describe('runs read back', () => {
  it('the trend is the last TREND_RUNS runs of its instance, oldest first; a listing keeps its limit; a run the history lacks is null', async () => {
    const file = path.join(tempDir('steward-history-runs-'), 'h.sqlite');
    const history = await openRunHistory(file, 'h.sqlite', 'test');
    try {
      for (let day = 1; day <= TREND_RUNS + 2; day++) {
        await recordReport(history, sampleReport(day % 3, undefined, `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`), 'hash');
      }
      await recordReport(history, { ...sampleReport(1, undefined, '2026-11-30T00:00:00.000Z'), instance: 'https://other.test' }, 'hash');
    } finally {
      await history.close();
    }
    const db = await openHistory(file, 'h.sqlite', { create: false });
    try {
      const trend = await trendOf(db, 'https://example.test');
      expect(trend.map((p) => p.run)).toEqual(Array.from({ length: TREND_RUNS }, (_, i) => i + 3));
      expect(trend.at(-1)).toMatchObject({ startedAt: '2026-11-22T00:00:00.000Z', violations: 1 });
      expect((await listRuns(db, { limit: 2 })).map((r) => [r.run, r.instance])).toEqual([
        [22, 'https://example.test'],
        [23, 'https://other.test'],
      ]);
      expect(await runContents(db, 24)).toBeNull();
      expect((await runContents(db, 23))!.findings.map((f) => f.fingerprint)).toEqual(['fp-p-one-0']);
    } finally {
      await db.close();
    }
  });
});
