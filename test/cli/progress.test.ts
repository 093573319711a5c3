// The progress line on stderr: one line rewritten in place on a TTY, cut to the terminal's
// width, cleared before the report; nothing at all when stderr is not a terminal.
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { REPO } from './helpers.js';

const CLEAR = '\r\x1b[2K';
const DEMO_NOTE = /^sandbox demo: these violations are planted/;

function fakeIo(stderr: { isTTY: boolean; columns?: number }) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (t: string) => out.push(t) },
    stderr: { ...stderr, write: (t: string) => err.push(t) } as CliIo['stderr'],
    env: {},
    cwd: REPO,
  };
  return { io, out, err };
}

const check = (io: CliIo) => run(['node', 'steward', 'check', '--sandbox', '--format', 'json'], io);

describe('progress on stderr', () => {
  it('on a TTY: one line per redraw, all kinds in registry order, cleared before the report', async () => {
    const { io, out, err } = fakeIo({ isTTY: true, columns: 300 });
    expect(await check(io)).toBe(0);
    expect(JSON.parse(out.join('')).summary.gate).toBe('fail');
    // progress redraws…, the clear, then the demo note (json on stdout, so it goes to stderr).
    const clearAt = err.lastIndexOf(CLEAR);
    expect(err.slice(clearAt + 1)).toEqual([expect.stringMatching(DEMO_NOTE)]);
    const lines = err.slice(0, clearAt);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l.startsWith(CLEAR) && !l.includes('\n')).toBe(true);
    expect(lines.at(-1)).toBe(
      `${CLEAR}reading  reportSchedule 46/46 · dataset 25/25 · card 7/7 · queue 4/4 · dataFile 3/3 · filesetFile 3/3 · calculatedFields 1/1 · workflow 6/6 · user 16/16 · group 11/11 · role 7/7 · accessToken 6/6 · page 6/6 · account 6/6`,
    );
  });

  it('on a narrow TTY: every line stays one column short of the width, cut with …', async () => {
    const { io, err } = fakeIo({ isTTY: true, columns: 40 });
    expect(await check(io)).toBe(0);
    const lines = err.slice(0, err.lastIndexOf(CLEAR)).map((l) => l.slice(CLEAR.length));
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(39);
    expect(lines.at(-1)).toBe('reading  reportSchedule 46/46 · datase…');
  });

  it('not on a TTY: no progress, no clearing, only the demo note', async () => {
    const { io, err } = fakeIo({ isTTY: false });
    expect(await check(io)).toBe(0);
    expect(err).toEqual([expect.stringMatching(DEMO_NOTE)]);
  });
});
