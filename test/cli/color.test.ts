// Colour only on a terminal and never with NO_COLOR (https://no-color.org): the decision, and
// a run whose stdout pretends to be a TTY.
import { describe, expect, it } from 'vitest';
import { type CliIo, colorFor } from '../../src/cli/io.js';
import { run } from '../../src/cli/main.js';
import { REPO } from './helpers.js';

describe('colorFor', () => {
  it.each([
    [true, {}, true],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '0' }, false],
    [true, { NO_COLOR: '' }, true], // no-color.org: only a non-empty value disables colour
    [false, {}, false],
    [undefined, {}, false],
  ])('isTTY %s with %o → %s', (isTTY, env, expected) => {
    expect(colorFor({ write: () => true, isTTY }, env)).toBe(expected);
  });
});

async function textRun(env: Record<string, string>): Promise<string> {
  const out: string[] = [];
  const io: CliIo = {
    stdout: { write: (t: string) => out.push(t), isTTY: true, columns: 100 },
    stderr: { write: () => true, isTTY: false },
    env,
    cwd: REPO,
  };
  expect(await run(['node', 'steward', 'check', '--sandbox', '--only', 'data-files-not-public'], io)).toBe(0);
  return out.join('');
}

describe('steward check on a terminal', () => {
  it('colours the text report on a TTY, and not with NO_COLOR set', async () => {
    const coloured = await textRun({});
    expect(coloured).toContain('\x1b[');
    expect(coloured).toContain('dataFile/42');
    const plain = await textRun({ NO_COLOR: '1' });
    expect(plain).not.toContain('\x1b[');
    expect(plain).toContain('dataFile/42');
  });
});
