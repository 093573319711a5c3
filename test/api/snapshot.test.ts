// Record a run over the sandbox, then replay it offline: same findings, no request.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../src/api/errors.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { loadPolicies } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { InputError } from '../../src/core/problem.js';
import { PageLine, pageItems, parseSnapshot, readSnapshot, recordingApi, replayApi, snapshotLines, spooledRecorder, withPageSpool, writeSnapshot } from '../../src/api/snapshot.js';
import { MIN_REDACTED_SECRET_LENGTH, SecretSet } from '../../src/core/redact.js';
import { type Demo, NOW, ROOT, startDemo } from '../engine/harness.js';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo({ token: 'sekret-token-123456' });
});
afterAll(() => demo.close());

/** A snapshot as the text `steward snapshot` writes (JSON Lines). */
const linesOf = (snap: Parameters<typeof snapshotLines>[0]) => `${[...snapshotLines(snap)].join('\n')}\n`;

const pack = async () => (await loadPolicies(['builtin'], { kinds: RESOURCE_KINDS, cwd: ROOT })).map((d) => compilePolicy(d));

describe('snapshots', () => {
  it('replaying a recorded run gives identical findings with zero requests', async () => {
    const policies = await pack();
    const recorder = recordingApi(demo.api(), { instance: demo.sandbox.baseUrl, now: () => NOW });
    const live = await demo.run(policies, recorder);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'steward-snap-')), 'snap.json');
    await writeSnapshot(file, recorder.snapshot());

    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sekret-token-123456');
    expect(text).not.toMatch(/X-SERVICE|Authorization|Bearer/i);
    const snap = await readSnapshot(file, 'snap.json');
    expect(snap).toMatchObject({ version: 2, instance: demo.sandbox.baseUrl, recordedAt: NOW.toISOString() });
    const ops = new Set(snap.answers.map((a) => a.operation));
    expect([...ops].sort()).toEqual([
      'getCalculatedFieldStatistics',
      'getCardAccessList',
      'getCertificationStatus',
      'getDataFilePermissions',
      'getDatasetPermissions',
      'getFileByPath',
      'getFilesetAccess',
      'getMisconfiguredReports',
      'getPdpPolicies',
      'getQueuePermissions',
      'getWorkflowPermissions',
      // Every owner of a card (cards-owner-active): the card admin summary.
      'listCardSummaries',
      // The owner parts: each content kind's listing once, and the users.
      'listDataFiles',
      'listDatasets',
      // The datasets' reach: each shared group's memberCount.
      'listGroups',
      'listQueues',
      'listReportSchedules',
      'listWorkflows',
      'searchCards',
      'searchFilesets',
      'searchUsers',
    ]);

    demo.sandbox.resetCounts();
    const replayed = await demo.run(policies, replayApi(snap));
    expect(demo.sandbox.totalRequests()).toBe(0);
    expect(replayed.findings).toEqual(live.findings);
    expect(replayed.results).toEqual(live.results);
  });

  it('a recording with a spool holds every page as its place in a temporary file, writes the same file as one in memory, and leaves no file behind', async () => {
    const policies = await pack();
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-spool-'));
    const inMemory = recordingApi(demo.api(), { instance: demo.sandbox.baseUrl, now: () => NOW });
    await demo.run(policies, inMemory);
    const held = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      let kept: PageLine | undefined;
      const text = await withPageSpool(async (spool) => {
        // Removed from the folder as soon as it is open (POSIX): a killed run leaves nothing.
        expect(readdirSync(dir)).toEqual([]);
        const recorder = recordingApi(demo.api(), { instance: demo.sandbox.baseUrl, now: () => NOW, spool });
        await demo.run(policies, recorder);
        const pages = recorder.snapshot().answers.flatMap((a) => a.pages ?? []);
        expect(pages.length).toBeGreaterThan(5);
        expect(pages.filter((p) => !(p instanceof PageLine))).toEqual([]);
        kept = pages[0] as PageLine;
        return linesOf(recorder.snapshot());
      });
      expect(text).toBe(linesOf(inMemory.snapshot()));
      // Its file is closed: a page read now is an error, never another file's bytes.
      expect(() => kept!.line()).toThrow(/read after its recording ended/);
      expect(readdirSync(dir)).toEqual([]);
      // A run's secret an answer echoes is redacted before its page is spooled (the commands' recorder).
      const echoed = inMemory.snapshot().answers.find((a) => a.operation === 'listDatasets')!;
      const secret = String((pageItems(echoed.pages![0])[0] as { name: string }).name);
      expect(secret.length).toBeGreaterThanOrEqual(MIN_REDACTED_SECRET_LENGTH);
      const spooled = await withPageSpool(async (spool) => {
        const recorder = spooledRecorder(spool);
        await demo.run(policies, recorder.wrapApi(demo.api(), demo.sandbox.baseUrl, SecretSet.of(secret)));
        return recorder.snapshot()!.answers.flatMap((a) => (a.pages ?? []).map((p) => (p as PageLine).line()));
      });
      expect(spooled.join('\n')).toContain('***');
      expect(spooled.join('\n')).not.toContain(secret);
      // Removed when the recording fails too.
      await expect(withPageSpool(async (spool) => {
        spool.add('{"operation":"listQueues","args":[],"page":[]}');
        throw new Error('the run failed');
      })).rejects.toThrow('the run failed');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      if (held === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = held;
    }
  });

  it('recorded read errors replay as the same error; unrecorded reads and writes fail', async () => {
    demo.sandbox.configure({ misconfiguredStatus: 409 });
    try {
      const policies = (await pack()).filter((p) => p.id === 'no-misconfigured-schedules');
      const recorder = recordingApi(demo.api());
      const live = await demo.run(policies, recorder);
      expect(live.results[0].status).toBe('error');
      const snap = recorder.snapshot();
      const answer = snap.answers.find((a) => a.operation === 'getMisconfiguredReports');
      expect(answer?.error).toMatchObject({ status: 409, kind: 'http' });
      const replayed = await demo.run(policies, replayApi(snap));
      expect(replayed.findings).toEqual(live.findings);

      const api = replayApi(snap);
      const miss = await api.getDatasetPermissions('ds-0001').catch((e: unknown) => e);
      expect(isApiError(miss) && miss.message).toMatch(/^getDatasetPermissions: not in snapshot/);
      const write = await api.updateQueuePermissions('q', []).catch((e: unknown) => e);
      expect(isApiError(write) && write.message).toMatch(/read-only/);
      expect(api.stats()).toEqual({ requests: 0, retries: 0, failed: 0 });
    } finally {
      demo.sandbox.configure({ misconfiguredStatus: 200 });
    }
  });

  it('a dataset run replayed without its certification answers reports errors, never passes', async () => {
    const policies = (await pack()).filter((p) => p.id === 'certified-datasets-need-owner-group');
    const recorder = recordingApi(demo.api());
    await demo.run(policies, recorder);
    const snap = recorder.snapshot();
    snap.answers = snap.answers.filter((a) => !(a.operation === 'getCertificationStatus' && a.args[1] === 'ds-hr-certified'));
    const replayed = await demo.run(policies, replayApi(snap));
    const err = replayed.findings.find((f) => f.status === 'error');
    expect(err?.resource.id).toBe('ds-hr-certified');
    expect(err?.message).toMatch(/not in snapshot/);
    expect(replayed.results[0].status).toBe('error');
  });

  it('a snapshot whose answers are malformed is bad input at the answer’s line and column', async () => {
    const policies = (await pack()).filter((p) => p.def.resource === 'reportSchedule');
    const recorder = recordingApi(demo.api());
    await demo.run(policies, recorder);
    const good = recorder.snapshot();
    const variant = (change: (a: Record<string, unknown>) => void, op = 'listReportSchedules') => {
      // Version 1, one JSON text (still read): its problems point into the answers array.
      const snap = { ...structuredClone(good), version: 1 } as unknown as { answers: Record<string, unknown>[] };
      const index = snap.answers.findIndex((a) => a.operation === op);
      change(snap.answers[index]);
      const text = JSON.stringify(snap, null, 2);
      try {
        parseSnapshot(text, 'snap.json');
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        const [p] = e.problems;
        // The reported line holds the offending key (or the answer's opening brace).
        return { index, message: p.message, at: text.split('\n')[p.line - 1].slice(p.column - 1).replace(/,$/, '') };
      }
      return 'loaded';
    };
    const i = good.answers.findIndex((a) => a.operation === 'listReportSchedules');
    expect(variant((a) => delete a.pages)).toEqual({
      index: i,
      message: `snapshot answer ${i}: listReportSchedules answer must hold "pages" (or "error")`,
      at: '{',
    });
    expect(variant((a) => (a.pages = 'xyz'))).toEqual({
      index: i,
      message: `snapshot answer ${i}: "pages" must be an array of pages (arrays)`,
      at: '"xyz"',
    });
    expect(variant((a) => (a.pages = [{ id: 'x' }]))).toMatchObject({ message: `snapshot answer ${i}: each page must be an array`, at: '{' });
    expect(variant((a) => (a.error = 5))).toMatchObject({
      message: `snapshot answer ${i}: "error" must be an object { message, status, ... }`,
      at: '5',
    });
    expect(variant((a) => (a.error = { message: 'x', status: '500' }))).toMatchObject({
      message: `snapshot answer ${i}: "error.status" must be a number or null`,
      at: '"500"',
    });
    expect(variant((a) => (a.value = {}))).toMatchObject({ at: '{}' });
    expect(variant((a) => (a.operation = 'deleteEverything'))).toMatchObject({ at: '"deleteEverything"' });
    expect(variant((a) => delete a.value, 'getMisconfiguredReports')).toBe('loaded');
    expect(variant((a) => (a.args = 'x'))).toMatchObject({ at: '"x"' });
  });

  it('two different answers to one read are bad input at the second; an identical repeat is accepted', async () => {
    const policies = (await pack()).filter((p) => p.def.resource === 'reportSchedule');
    const recorder = recordingApi(demo.api());
    await demo.run(policies, recorder);
    const good = recorder.snapshot();
    const i = good.answers.findIndex((a) => a.operation === 'getMisconfiguredReports');
    const same = { ...good, version: 1, answers: [...good.answers, structuredClone(good.answers[i])] };
    expect(parseSnapshot(JSON.stringify(same, null, 2), 'snap.json').answers).toHaveLength(good.answers.length + 1);
    const other = structuredClone(good.answers[i]);
    other.pages = [[]];
    const text = JSON.stringify({ ...good, version: 1, answers: [...good.answers, other] }, null, 2);
    const second = good.answers.length;
    let problems: { line: number; column: number; message: string }[] = [];
    try {
      parseSnapshot(text, 'snap.json');
    } catch (e) {
      problems = (e as InputError).problems;
    }
    expect(problems.map((p) => p.message)).toEqual([
      `snapshot answer ${second}: a second, different answer to getMisconfiguredReports [] (answer ${i} answers it already)`,
    ]);
    // At the second answer's opening brace (the last answer of the file).
    expect(text.split('\n')[problems[0].line - 1].slice(problems[0].column - 1)).toBe('{');
    expect(problems[0].line).toBe(text.split('\n').lastIndexOf('    {') + 1);
  });

  it('replayed bodies are checked like live ones: a body of the wrong shape is API drift of that read', async () => {
    const policies = (await pack()).filter((p) => p.id === 'no-misconfigured-schedules' || p.id === 'scheduled-cards-certification-current');
    const recorder = recordingApi(demo.api());
    const live = await demo.run(policies, recorder);
    expect(live.results.map((r) => r.status)).toEqual(['fail', 'fail']);
    const snap = recorder.snapshot();
    for (const a of snap.answers) {
      if (a.operation === 'listReportSchedules') a.pages = [[{ id: 'x' }]];
      if (a.operation === 'getCertificationStatus') a.value = { tag: 'CERTIFIED', metadata: null, updated: null };
    }
    const parsed = parseSnapshot(linesOf(snap), 'snap.json');
    const replayed = await demo.run(policies, replayApi(parsed));
    expect(replayed.results.map((r) => r.status)).toEqual(['error', 'error']);
    expect(replayed.findings.every((f) => f.status === 'error')).toBe(true);
    expect(replayed.results[0].error).toMatch(/listReportSchedules: API drift at \[0\]\.\w+: missing \(replayed from the snapshot\)/);
    const certs = await replayApi(parsed).getCertificationStatus('CARD', String(snap.answers.find((a) => a.operation === 'getCertificationStatus')?.args[1]))
      .catch((e: unknown) => e);
    expect(isApiError(certs) && [certs.kind, certs.message]).toEqual([
      'drift',
      'getCertificationStatus: API drift at state: missing (replayed from the snapshot)',
    ]);
  });

  it('a single answer replayed twice is the same answer, as a live run’s GET memo gives it; a page read from a line is parsed again, as a live page is fetched again', async () => {
    const recorder = recordingApi(demo.api());
    await recorder.getCalculatedFieldStatistics();
    for await (const _ of recorder.listReportSchedules()) {
      // recorded
    }
    const snap = recorder.snapshot();
    const api = replayApi(parseSnapshot(linesOf(snap), 'snap.json'));
    const first = await api.getCalculatedFieldStatistics();
    const firstPages: unknown[][] = [];
    for await (const page of api.listReportSchedules()) firstPages.push(page);
    expect(firstPages.flat()).toHaveLength(snap.answers.find((a) => a.operation === 'listReportSchedules')!.pages!.flat().length);
    const second = await api.getCalculatedFieldStatistics();
    const secondPages: unknown[][] = [];
    for await (const page of api.listReportSchedules()) secondPages.push(page);
    expect(second).toBe(first);
    expect(secondPages).toEqual(firstPages);
    // Equal, not the same objects: between reads a replay holds a page's line, not its objects.
    expect(secondPages[0]).not.toBe(firstPages[0]);
  });
  it('a page read from a file is read again from it when replayed; a file changed since is refused, never replayed', async () => {
    const recorder = recordingApi(demo.api());
    for await (const _ of recorder.listReportSchedules({ pageSize: 10 })) {
      // recorded
    }
    const recorded = recorder.snapshot().answers.find((a) => a.operation === 'listReportSchedules')!.pages!;
    expect(recorded.length).toBeGreaterThan(3);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'steward-snap-')), 'snap.jsonl');
    await writeSnapshot(file, recorder.snapshot());
    const replayed = async () => {
      const pages: unknown[][] = [];
      for await (const page of replayApi(await readSnapshot(file, 'snap.jsonl')).listReportSchedules({ pageSize: 10 })) pages.push(page);
      return pages;
    };
    expect(await replayed()).toEqual(recorded);
    const snap = await readSnapshot(file, 'snap.jsonl');
    const api = replayApi(snap);
    const first: unknown[][] = [];
    for await (const page of api.listReportSchedules({ pageSize: 10 })) first.push(page);
    expect(first).toEqual(recorded);
    // Rewritten with the same length (one schedule's title changed) after it was read:
    const body = readFileSync(file, 'utf8');
    const title = /"title":"([^"]+)"/.exec(body)![1];
    writeFileSync(file, body.replace(`"title":"${title}"`, `"title":"${'x'.repeat(title.length)}"`));
    expect(readFileSync(file).length).toBe(Buffer.byteLength(body));
    const read = async () => {
      for await (const _ of api.listReportSchedules({ pageSize: 10 })) {
        // replayed
      }
    };
    await expect(read()).rejects.toThrow('snap.jsonl: the snapshot file changed while it was replayed: run again');
    // Appended to:
    const again = replayApi(await readSnapshot(file, 'snap.jsonl'));
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n`);
    await expect((async () => {
      for await (const _ of again.listReportSchedules({ pageSize: 10 })) {
        // replayed
      }
    })()).rejects.toThrow(/the snapshot file changed while it was replayed/);
  });

  it('a snapshot read from a pipe keeps its page lines: they cannot be read from it again', async () => {
    const recorder = recordingApi(demo.api());
    for await (const _ of recorder.listReportSchedules({ pageSize: 10 })) {
      // recorded
    }
    const recorded = recorder.snapshot().answers.find((a) => a.operation === 'listReportSchedules')!.pages!;
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-snap-'));
    const file = path.join(dir, 'snap.jsonl');
    const fifo = path.join(dir, 'snap.pipe');
    await writeSnapshot(file, recorder.snapshot());
    execFileSync('mkfifo', [fifo]);
    // Another process writes the pipe, as a shell's `steward snapshot --out /dev/stdout |` would.
    const writer = spawn('sh', ['-c', 'cat "$0" > "$1"', file, fifo]);
    const written = new Promise((resolve) => writer.on('close', resolve));
    const snap = await readSnapshot(fifo, 'snap.pipe');
    expect(await written).toBe(0);
    const pages: unknown[][] = [];
    for await (const page of replayApi(snap).listReportSchedules({ pageSize: 10 })) pages.push(page);
    expect(pages).toEqual(recorded);
  });
});
