// writeReports: a JSON report long enough to go out in many pieces is, on stdout and in an
// --output file, exactly the whole report's text with every secret redacted: a secret beyond
// the first piece, or where a piece boundary could have split it, is still `***`.
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { writeReports } from '../../src/cli/report-output.js';
import { formatJson } from '../../src/report/json.js';
import { readFifo } from '../fixtures/fifo.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';
import { CLI, spawnCli, spawnProcess, tempDir } from './helpers.js';

const TOKEN = 'tok_CHUNKED_5c7e1a9b3d';

function captured(cwd: string): CliIo & { out: string[] } {
  const out: string[] = [];
  return { out, stdout: { write: (t: string) => out.push(t) }, stderr: { write: () => true }, env: { STEWARD_TOKEN: TOKEN }, cwd };
}

describe('writeReports', () => {
  it('writes a long JSON report piece by piece, each a run of whole lines, equal to the whole text redacted', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `schedule-${i}`);
    // The token where a piece boundary falls most often (between ids), and in the last finding.
    ids[10_000] = `leak ${TOKEN} leak`;
    const report = makeReport({
      policies: [makePolicy({ resourceIds: ids })],
      findings: [makeFinding({ message: `echoed ${TOKEN}` }), makeFinding({ message: 'the last finding' })],
    });
    const dir = tempDir();
    const io = captured(dir);
    writeReports(report, 'json', [{ format: 'json', path: 'out/r.json' }], io);
    const whole = formatJson(report, { color: false }).replaceAll(TOKEN, '***');
    expect(io.out.length).toBeGreaterThan(5);
    expect(io.out.every((piece) => piece.endsWith('\n'))).toBe(true);
    expect(io.out.join('')).toBe(whole);
    expect(readFileSync(path.join(dir, 'out/r.json'), 'utf8')).toBe(whole);
    const parsed = JSON.parse(io.out.join(''));
    expect([parsed.policies[0].resourceIds[10_000], parsed.findings.map((f: { message: string }) => f.message)]).toEqual([
      'leak *** leak',
      ['echoed ***', 'the last finding'],
    ]);
  });

  it('ends a report that does not end a line with a newline, as one write more', () => {
    const io = captured(tempDir());
    writeReports(makeReport({ findings: [] }), 'github', [], io);
    expect(io.out.at(-1)).toBe('\n');
    expect(io.out.join('')).not.toContain(TOKEN);
  });

  it.skipIf(process.platform === 'win32')('-o json=FIFO writes the report into the pipe, which stays a pipe (as /dev/stdout would)', async () => {
    const dir = tempDir();
    const { fifo, read, stop } = readFifo(dir, 'report-pipe');
    try {
      const r = await spawnCli(['check', '--sandbox', '-o', `json=${fifo}`, '--format', 'text'], { cwd: dir });
      expect(r.code).toBe(0);
      expect(JSON.parse(await read).summary.gate).toBe('fail');
    } finally {
      stop();
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['report-pipe']);
  });

  it.skipIf(process.platform === 'win32')('-o json=/dev/stdout appended to a log (`>> log`) keeps what the log held: the name is opened to append, not truncated', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'log.txt');
    writeFileSync(log, 'an earlier line\n');
    const r = await spawnProcess('bash', ['-c', '"$@" >> log.txt', 'bash', process.execPath, CLI, 'check', '--sandbox', '-o', 'json=/dev/stdout', '--format', 'text'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(r.code).toBe(0);
    const text = readFileSync(log, 'utf8');
    // The log's line, then the JSON report (-o files are written first), then the text report.
    expect(text.startsWith('an earlier line\n{\n  "schemaVersion": 1,')).toBe(true);
    const json = text.slice('an earlier line\n'.length, text.indexOf('\n}\n') + 3);
    expect(JSON.parse(json).summary.gate).toBe('fail');
    expect(text.slice(json.length + 'an earlier line\n'.length)).toMatch(/^steward /);
  });
});
