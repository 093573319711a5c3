// fileClashes(): the files one run writes against each other and against what it reads.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileClashes } from '../../src/library/run-files.js';

const cwd = path.resolve('/work/project');

describe('fileClashes', () => {
  it('two written files naming one path: the second is refused, naming the first (relative and absolute alike)', () => {
    expect(fileClashes([{ name: '--output json=r.json', file: 'r.json' }, { name: '--output sarif=r.json', file: path.join(cwd, 'r.json') }], [], cwd)).toEqual([
      { file: '--output sarif=r.json', line: 0, column: 0, message: 'r.json is also --output json=r.json: one would overwrite the other' },
    ]);
  });

  it('a written file naming a file the run reads is refused, naming what it is', () => {
    const read = [{ name: 'the config', file: path.join(cwd, 'steward.yaml') }, { name: '--from', file: 'snap.json' }];
    expect(fileClashes([{ name: '--out', file: 'steward.yaml' }, { name: 'the run history', file: './snap.json' }, { name: '--plan-out', file: 'plan.json' }], read, cwd)).toEqual([
      { file: '--out', line: 0, column: 0, message: 'steward.yaml is the config, which this run reads: it would be overwritten' },
      { file: 'the run history', line: 0, column: 0, message: 'snap.json is --from, which this run reads: it would be overwritten' },
    ]);
  });

  it('the baseline rewritten by the run comparing with it is allowed; any other file over the baseline is not', () => {
    const read = [{ name: '--baseline', file: 'b.json' }];
    expect(fileClashes([{ name: '--write-baseline', file: 'b.json' }], read, cwd)).toEqual([]);
    expect(fileClashes([{ name: '--output json=b.json', file: 'b.json' }], read, cwd)).toEqual([
      { file: '--output json=b.json', line: 0, column: 0, message: 'b.json is --baseline, which this run reads: it would be overwritten' },
    ]);
  });
});
