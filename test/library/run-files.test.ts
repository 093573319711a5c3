// fileClashes(): the files one run writes against each other and against what it reads.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/index.js';
import { fileClashes, runReads, runWrites } from '../../src/library/run-files.js';

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

describe('fileClashes through links', () => {
  it('a written path that links to a file the run reads (or to its folder) is that file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-run-files-'));
    writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin]\n');
    mkdirSync(path.join(dir, 'real'));
    symlinkSync(path.join(dir, 'steward.yaml'), path.join(dir, 'report.json'));
    symlinkSync(path.join(dir, 'real'), path.join(dir, 'alias'));
    const read = [{ name: 'the config', file: path.join(dir, 'steward.yaml') }, { name: '--from', file: path.join(dir, 'real', 'snap.json') }];
    expect(fileClashes([{ name: '--output json=report.json', file: 'report.json' }, { name: '--out', file: 'alias/snap.json' }], read, dir).map((p) => p.message)).toEqual([
      'report.json is the config, which this run reads: it would be overwritten',
      'alias/snap.json is --from, which this run reads: it would be overwritten',
    ]);
  });
});

describe('runReads and runWrites: the files a check run reads and writes', () => {
  const config = { file: path.join(cwd, 'steward.yaml'), manifestFiles: { queue: [path.join(cwd, 'q.yaml')], dataFile: [] }, waiversFile: path.join(cwd, 'waivers.yaml') } as unknown as Config;

  it('reads: the config, each policy file, each manifest, the waivers, the baseline and the snapshot (not stdin)', () => {
    expect(runReads(config, [path.join(cwd, 'p.yaml')], { baseline: 'b.json', from: 'snap.json' })).toEqual([
      { name: 'the config', file: path.join(cwd, 'steward.yaml') },
      { name: 'a policy file', file: path.join(cwd, 'p.yaml') },
      { name: 'a manifest', file: path.join(cwd, 'q.yaml') },
      { name: 'the waivers file', file: path.join(cwd, 'waivers.yaml') },
      { name: '--baseline', file: 'b.json' },
      { name: '--from', file: 'snap.json' },
    ]);
    expect(runReads({ ...config, file: null, waiversFile: null, manifestFiles: {} } as unknown as Config, [], { from: '-' })).toEqual([]);
  });

  it('writes: the caller\'s files, the baseline to write, and a history file (never a PostgreSQL URL)', () => {
    const out = [{ name: '--output json=r.json', file: 'r.json' }];
    expect(runWrites({ writeBaseline: 'b.json' }, path.join(cwd, 'h.sqlite'), out)).toEqual([
      ...out,
      { name: '--write-baseline', file: 'b.json' },
      { name: 'the run history', file: path.join(cwd, 'h.sqlite') },
    ]);
    expect(runWrites({}, 'postgres://u@db/steward', [])).toEqual([]);
  });
});
