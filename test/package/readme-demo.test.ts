// README's demo output is a real run's: the block under "Quick start" is `npm start`'s output
// (`check --sandbox`, 80 columns), its head the run's first lines and its tail the run's last,
// with only the sandbox's port and the run's duration varying.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli } from '../cli/helpers.js';

const normal = (line: string) => line.replace(/http:\/\/127\.0\.0\.1:\d+/, 'http://127.0.0.1:PORT').replace(/· [\d.]+s ·/, '· Ns ·');

describe('README demo output', () => {
  it('is the head and tail of what npm start prints', async () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const block = /```\n(steward \d[^\n]*\n[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const [head, tail] = block!.trimEnd().split('\n…\n').map((part) => part.split('\n').map(normal));
    const r = await runCli(['check', '--sandbox', '--no-color']);
    expect(r.code).toBe(0);
    const out = r.stdout.trimEnd().split('\n').map(normal);
    expect(out.slice(0, head.length)).toEqual(head);
    expect(out.slice(-tail.length)).toEqual(tail);
  });
});
