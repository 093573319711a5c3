// Snapshots as JSON Lines (version 2): written and read a line at a time, every problem bad input
// at its line and column, and a file cut short never replays as a complete listing.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretSet } from '../../src/core/redact.js';
import { InputError } from '../../src/core/problem.js';
import { PageLine, pageItems, parseSnapshot, readSnapshot, type SnapshotFile, snapshotLines, writeSnapshot } from '../../src/api/snapshot.js';

const schedule = (i: number) => ({ id: `s-${i}`, title: `Schedule ${i} ${'x'.repeat(200)}`, schedule: { timezone: 'UTC', enabled: true }, recipientCount: i % 3 });

const SNAP: SnapshotFile = {
  version: 2,
  instance: 'https://x.example',
  recordedAt: '2026-11-26T00:00:00.000Z',
  answers: [
    { operation: 'getCalculatedFieldStatistics', args: [], value: { total: 3 } },
    { operation: 'getMisconfiguredReports', args: [], pages: [[{ id: 's-1' }], []] },
    { operation: 'getQueuePermissions', args: ['q-1'], error: { message: 'getQueuePermissions: HTTP 404', status: 404, kind: 'http' } },
    // Pages of ~25 KB: lines cross the reader's 64 KiB chunks.
    { operation: 'listReportSchedules', args: [], pages: [0, 1, 2, 3, 4, 5].map((p) => Array.from({ length: 100 }, (_, i) => schedule(p * 100 + i))) },
    { operation: 'listWorkflowModels', args: [], pages: [[{ id: 'q-1', name: 'Q' }]], error: { message: 'listWorkflowModels: HTTP 503', status: 503, kind: 'http' } },
  ],
};

/** A snapshot as read, with each page line's items (a read snapshot holds pages as their lines). */
const withItems = (snap: SnapshotFile): SnapshotFile => ({ ...snap, answers: snap.answers.map((a) => (a.pages ? { ...a, pages: a.pages.map(pageItems) } : a)) });

const dir = () => mkdtempSync(path.join(tmpdir(), 'steward-snap-lines-'));
const text = (snap: SnapshotFile) => `${[...snapshotLines(snap)].join('\n')}\n`;

/** The problem a text is refused with: `line:column: message`, and what the reported place holds. */
function refused(body: string): { at: string; message: string; holds: string } {
  try {
    parseSnapshot(body, 'snap.jsonl');
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const [p] = e.problems;
    return { at: `${p.line}:${p.column}`, message: p.message, holds: (body.split('\n')[p.line - 1] ?? '').slice(p.column - 1, p.column + 19) };
  }
  throw new Error('accepted');
}

describe('snapshot files as JSON Lines', () => {
  it('a header line, one line per single answer, one per page and a closing line counting them', () => {
    const lines = text(SNAP).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '{"version":2,"instance":"https://x.example","recordedAt":"2026-11-26T00:00:00.000Z"}',
      '{"operation":"getCalculatedFieldStatistics","args":[],"value":{"total":3}}',
      '{"operation":"getMisconfiguredReports","args":[],"page":[{"id":"s-1"}]}',
      '{"operation":"getMisconfiguredReports","args":[],"page":[]}',
    ]);
    expect(lines.slice(4, 6)).toEqual([
      '{"operation":"getMisconfiguredReports","args":[],"pages":2}',
      '{"operation":"getQueuePermissions","args":["q-1"],"error":{"message":"getQueuePermissions: HTTP 404","status":404,"kind":"http"}}',
    ]);
    expect(lines.slice(13)).toEqual([
      '{"operation":"listWorkflowModels","args":[],"page":[{"id":"q-1","name":"Q"}]}',
      '{"operation":"listWorkflowModels","args":[],"pages":1,"error":{"message":"listWorkflowModels: HTTP 503","status":503,"kind":"http"}}',
      '',
    ]);
    expect(lines).toHaveLength(16);
  });

  it('written to a file and read back a chunk at a time: the same snapshot; a secret is redacted on every line', async () => {
    const file = path.join(dir(), 'snap.jsonl');
    const secret = 'sekret-value-98765';
    const leaky = structuredClone(SNAP);
    leaky.answers[0].value = { total: 3, note: `token ${secret}` };
    await writeSnapshot(file, leaky, SecretSet.of(secret));
    const written = readFileSync(file, 'utf8');
    expect(written).not.toContain(secret);
    expect(written.split('\n')[1]).toBe('{"operation":"getCalculatedFieldStatistics","args":[],"value":{"total":3,"note":"token ***"}}');
    expect(written.length).toBeGreaterThan(2 * 65_536);
    const back = await readSnapshot(file, 'snap.jsonl');
    expect(back.answers[0].value).toEqual({ total: 3, note: 'token ***' });
    expect(withItems({ ...back, answers: back.answers.slice(1) })).toEqual({ ...SNAP, answers: SNAP.answers.slice(1) });
    // Each page is held as its line until replayed.
    expect(back.answers[3].pages!.every((p) => p instanceof PageLine)).toBe(true);
  });

  it('read a chunk at a time whatever the chunks cut: a header longer than a chunk, lines across them, no newline at the end', async () => {
    // A header of ~70 KB (a long instance name) ends in the second chunk; the last line has no newline.
    const long: SnapshotFile = { ...SNAP, instance: `https://${'a'.repeat(70_000)}.example` };
    // One of ~150 KB ends in the third chunk, the last one short.
    const longer: SnapshotFile = { ...SNAP, instance: `https://${'c'.repeat(150_000)}.example` };
    // Written in chunks of ~1 MiB: a header past one is written whole, the lines after it as well.
    const huge: SnapshotFile = { ...SNAP, instance: `https://${'b'.repeat(1_100_000)}.example` };
    const hugeFile = path.join(dir(), 'huge.jsonl');
    await writeSnapshot(hugeFile, huge);
    expect(readFileSync(hugeFile, 'utf8')).toBe(text(huge));
    const file = path.join(dir(), 'snap.jsonl');
    for (const [body, snap] of [
      [text(long), long],
      [text(long).slice(0, -1), long],
      [text(longer), longer],
      [text(SNAP).slice(0, -1), SNAP],
    ] as const) {
      writeFileSync(file, body);
      const back = await readSnapshot(file, 'snap.jsonl');
      expect(withItems(back)).toEqual(snap);
    }
    // Cut before its closing line: never the shorter snapshot.
    const lines = text(SNAP).split('\n');
    writeFileSync(file, lines.slice(0, -2).join('\n'));
    await expect(readSnapshot(file, 'snap.jsonl')).rejects.toThrow(/^snap\.jsonl:/);
  });

  it('a file replaced after it was read (same size, same time, another inode) is refused when a page is read again', async () => {
    const d = dir();
    const file = path.join(d, 'snap.jsonl');
    // Both files' times set to one whole second: the replacement differs from the file read in its inode alone.
    const when = new Date('2026-11-30T12:00:00.000Z');
    writeFileSync(file, text(SNAP));
    utimesSync(file, when, when);
    const back = await readSnapshot(file, 'snap.jsonl');
    const read = statSync(file);
    const other = path.join(d, 'other.jsonl');
    writeFileSync(other, text(SNAP).replace('Schedule 1 ', 'Schedulx 1 '));
    utimesSync(other, when, when);
    renameSync(other, file);
    const now = statSync(file);
    expect([now.size, now.mtimeMs, now.dev, now.ino === read.ino]).toEqual([read.size, read.mtimeMs, read.dev, false]);
    const page = back.answers[3].pages![0] as PageLine;
    expect(() => page.items()).toThrow('snap.jsonl: the snapshot file changed while it was replayed: run again');
  });

  it('a newline that is the first byte of a chunk ends its line there: the header, then an answer', async () => {
    // The reader takes 64 KiB chunks: the header's newline is byte 65,536, the next line's 131,072.
    const CHUNK = 65_536;
    const header = (pad: number) => JSON.stringify({ version: 2, instance: `https://${'h'.repeat(pad)}.example`, recordedAt: SNAP.recordedAt });
    const head = header(CHUNK - header(0).length);
    const value = (pad: number) => JSON.stringify({ operation: 'getCalculatedFieldStatistics', args: [], value: { total: 3, note: 'n'.repeat(pad) } });
    const line2 = value(CHUNK - 1 - value(0).length);
    expect([head.length, line2.length]).toEqual([CHUNK, CHUNK - 1]);
    const file = path.join(dir(), 'edges.jsonl');
    writeFileSync(file, `${head}\n${line2}\n${text(SNAP).split('\n').slice(2).join('\n')}`);
    expect(readFileSync(file)[CHUNK]).toBe(0x0a);
    expect(readFileSync(file)[2 * CHUNK]).toBe(0x0a);
    const back = await readSnapshot(file, 'edges.jsonl');
    expect(back.instance).toBe(JSON.parse(head).instance);
    expect(back.answers[0]).toEqual(JSON.parse(line2));
    expect(withItems(back).answers.slice(1)).toEqual(SNAP.answers.slice(1));
  });

  it('a header alone, without a newline, is a snapshot of no answers, from text and from a file', async () => {
    const [head] = text(SNAP).split('\n');
    const none = { version: 2, instance: SNAP.instance, recordedAt: SNAP.recordedAt, answers: [] };
    expect(parseSnapshot(head, 'head.jsonl')).toEqual(none);
    const file = path.join(dir(), 'head.jsonl');
    writeFileSync(file, head);
    expect(await readSnapshot(file, 'head.jsonl')).toEqual(none);
  });

  it('a bad line read from a file is bad input at its line and column, not a failure to read the file', async () => {
    const file = path.join(dir(), 'bad.jsonl');
    const lines = text(SNAP).split('\n');
    writeFileSync(file, [...lines.slice(0, 2), '{"operation":"getMisconfiguredReports","args":[],"page":{}}', ...lines.slice(3)].join('\n'));
    const error = await readSnapshot(file, 'bad.jsonl').then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([{ file: 'bad.jsonl', line: 3, column: 57, message: 'snapshot line 3: "page" must be an array' }]);
  });

  it('a page read again from its file closes the file each time, and a file grown since (its time set back) is refused', async () => {
    const file = path.join(dir(), 'snap.jsonl');
    writeFileSync(file, text(SNAP));
    // A whole second, which the file's time can be set back to exactly.
    const when = new Date('2026-11-30T12:00:00.000Z');
    utimesSync(file, when, when);
    const back = await readSnapshot(file, 'snap.jsonl');
    const page = back.answers[3].pages![0] as PageLine;
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) expect(page.items()).toHaveLength(100);
    expect(open()).toBe(before);
    const read = statSync(file);
    appendFileSync(file, '\n');
    utimesSync(file, when, when);
    expect([statSync(file).mtimeMs, statSync(file).ino, statSync(file).size]).toEqual([read.mtimeMs, read.ino, read.size + 1]);
    expect(() => page.items()).toThrow('snap.jsonl: the snapshot file changed while it was replayed: run again');
    expect(open()).toBe(before);
  });

  it('a snapshot file is read in place and closed: read whole 20 times, or refused at a bad line mid-file, it leaves no descriptor open', async () => {
    const file = path.join(dir(), 'snap.jsonl');
    writeFileSync(file, text(SNAP));
    // Past one read chunk (64 KiB), so the refusal below comes with chunks still unread.
    expect(statSync(file).size).toBeGreaterThan(2 * 65_536);
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) expect((await readSnapshot(file, 'snap.jsonl')).answers).toHaveLength(SNAP.answers.length);
    expect(open()).toBe(before);
    const lines = text(SNAP).split('\n');
    writeFileSync(file, [...lines.slice(0, 2), '{"operation":"getMisconfiguredReports","args":[],"page":{}}', ...lines.slice(3)].join('\n'));
    for (let i = 0; i < 20; i++) await expect(readSnapshot(file, 'snap.jsonl')).rejects.toThrow('snapshot line 3: "page" must be an array');
    expect(open()).toBe(before);
  });

  it('a file that cannot be read is said so, naming it', async () => {
    await expect(readSnapshot(dir(), 'a-folder')).rejects.toThrow(/^a-folder: cannot read snapshot: EISDIR/);
  });

  it('version 1 (one JSON text) is still read, from a file and from text', async () => {
    const file = path.join(dir(), 'old.json');
    writeFileSync(file, JSON.stringify({ ...SNAP, version: 1 }, null, 2));
    expect(await readSnapshot(file, 'old.json')).toEqual(SNAP);
    // On one line of ~180 KB, past several of the reader's chunks: without and with its newline.
    const compact = JSON.stringify({ ...SNAP, version: 1 });
    expect(compact.length).toBeGreaterThan(2 * 65_536);
    for (const text of [compact, `${compact}\n`]) {
      writeFileSync(file, text);
      expect(await readSnapshot(file, 'old.json')).toEqual(SNAP);
    }
    expect(parseSnapshot(JSON.stringify({ ...SNAP, version: 1 }), 'old.json')).toEqual(SNAP);
  });

  it('a line that is not JSON, or not an answer, is bad input at its line and column', () => {
    const lines = text(SNAP).split('\n');
    const at = (i: number, line: string) => refused([...lines.slice(0, i), line, ...lines.slice(i + 1)].join('\n'));
    expect(at(2, '{"operation":"getMisconfiguredReports","args":[],"page":[{"id":"s-1"}]')).toMatchObject({ at: '3:71', message: "snapshot is not JSON: Expected ',' or '}' after property value" });
    expect(at(1, '{"operation":"deleteEverything","args":[],"value":1}')).toMatchObject({
      at: '2:14',
      message: expect.stringMatching(/^snapshot line 2: unknown read operation "deleteEverything" \(one of /),
      holds: '"deleteEverything","',
    });
    expect(at(1, '{"operation":"getCalculatedFieldStatistics","args":{},"value":1}')).toMatchObject({ at: '2:52', message: 'snapshot line 2: "args" must be an array', holds: '{},"value":1}' });
    expect(at(1, '{"operation":"getCalculatedFieldStatistics","args":[],"page":[]}')).toMatchObject({ message: 'snapshot line 2: getCalculatedFieldStatistics is not paged: its line holds "value" or "error"', holds: '[]}' });
    expect(at(2, '{"operation":"getMisconfiguredReports","args":[],"value":[]}')).toMatchObject({ message: 'snapshot line 3: getMisconfiguredReports is paged: its lines hold "page", then "pages"' });
    expect(at(2, '{"operation":"getMisconfiguredReports","args":[],"page":{}}')).toMatchObject({ message: 'snapshot line 3: "page" must be an array', holds: '{}}' });
    expect(at(4, '{"operation":"getMisconfiguredReports","args":[],"pages":-1}')).toMatchObject({ message: expect.stringMatching(/must hold "page" \(a page\) or "pages"/) });
    expect(at(5, '{"operation":"getQueuePermissions","args":["q-1"],"error":{"message":"m","status":"404"}}')).toMatchObject({ message: 'snapshot line 6: "error.status" must be a number or null', holds: '"404"}}' });
    expect(at(0, '{"version":3}')).toMatchObject({ at: '1:12', message: expect.stringMatching(/^snapshot must have "version": 2 on its first line/) });
  });

  it('a listing cut short, a page lost, or pages of two reads interleaved: bad input, never a shorter listing', () => {
    const lines = text(SNAP).split('\n');
    // Cut after the schedules' third page: the file ends inside their answer.
    const cut = lines.slice(0, 9).join('\n');
    expect(refused(cut)).toEqual({ at: '9:1', message: 'snapshot ends inside the answer to listReportSchedules [] (from line 7): its closing "pages" line is missing (a recording cut short?)', holds: lines[8].slice(0, 20) });
    // One page line dropped: the closing line counts 6.
    expect(refused([...lines.slice(0, 8), ...lines.slice(9)].join('\n'))).toMatchObject({
      at: '12:1',
      message: 'snapshot line 12: "pages": 6, but 5 page line(s) of listReportSchedules [] precede it',
    });
    // The misconfigured list's closing line missing, the next answer follows.
    expect(refused([...lines.slice(0, 4), ...lines.slice(5)].join('\n'))).toMatchObject({
      at: '5:1',
      message: 'snapshot line 5: the answer to getMisconfiguredReports [] (from line 3) has no closing "pages" line before this one',
    });
  });

  it('a second, different answer to one read is bad input at it; an identical repeat is accepted', () => {
    const lines = text(SNAP).split('\n');
    const again = [...lines.slice(0, 2), lines[1], ...lines.slice(2)].join('\n');
    expect(parseSnapshot(again, 'snap.jsonl').answers).toHaveLength(SNAP.answers.length + 1);
    const other = [...lines.slice(0, 2), '{"operation":"getCalculatedFieldStatistics","args":[],"value":{"total":4}}', ...lines.slice(2)].join('\n');
    expect(refused(other)).toEqual({
      at: '3:1',
      message: 'snapshot line 3: a second, different answer to getCalculatedFieldStatistics [] (line 2 answers it already)',
      holds: '{"operation":"getCal',
    });
  });

  it('an empty file, a header alone, and a byte that is not UTF-8 on a later line', async () => {
    const lines = text(SNAP).split('\n');
    expect(parseSnapshot(`${lines[0]}\n`, 'snap.jsonl')).toEqual({ ...SNAP, answers: [] });
    expect(() => parseSnapshot('', 'snap.jsonl')).toThrow(/snapshot is not JSON/);
    const file = path.join(dir(), 'bad.jsonl');
    const bytes = Buffer.from(text(SNAP));
    // Line 4's 14th byte, inside "getMisconfiguredReports".
    const line4 = text(SNAP).split('\n').slice(0, 3).join('\n').length + 1;
    bytes[line4 + 13] = 0xff;
    writeFileSync(file, bytes);
    await expect(readSnapshot(file, 'bad.jsonl')).rejects.toThrow('bad.jsonl:4:14: not UTF-8 (byte 0xff): save the file as UTF-8');
    await expect(readSnapshot(path.join(dir(), 'none.jsonl'), 'none.jsonl')).rejects.toThrow(/^none\.jsonl: cannot read snapshot: ENOENT/);
  });
});
