// The CLI's store of answers about its YAML input files: one file per command in steward's cache
// folder, recalled only for the very text of a file by the very build, written whole, and a run
// answered from it gives the report a run that parses gives.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { yamlAnswerFile } from '../../src/cli/yaml-answers.js';
import { CLI, copyDemo, demoSnapshot, tempDir } from './helpers.js';

const answers = (entries: [string, unknown][]) => () => new Map(entries.map(([q, a]) => [q, JSON.stringify(a)]));

describe('the answer file', () => {
  it('is none without a folder or a build (the cache off, a chunk without its first line), or for a build key no folder can be named by', () => {
    expect(yamlAnswerFile(null, 'b1', 'check')).toBeNull();
    expect(yamlAnswerFile(tempDir('steward-ya-'), null, 'check')).toBeNull();
    expect(['../b1', 'b/1', '', '.'].map((build) => yamlAnswerFile(tempDir('steward-ya-'), build, 'check'))).toEqual([null, null, null, null]);
  });

  it('keeps each build\'s answers apart: two installs alternating each recall their own; the four builds saved last stay, and nothing the earlier version kept beside them', () => {
    const folder = tempDir('steward-ya-');
    // What the version before kept: one file per command, for whichever build wrote last.
    writeFileSync(path.join(folder, 'check.json'), JSON.stringify({ build: 'b1', entries: [] }));
    const keep = (build: string) => {
      const run = yamlAnswerFile(folder, build, 'check')!;
      const recalled = run.recall('a.yaml', 'a');
      run.track('a.yaml', 'a', answers([['q', build]]));
      run.save();
      return recalled?.get('q');
    };
    expect([keep('b1'), keep('b2'), keep('b1'), keep('b2')]).toEqual([undefined, undefined, '"b1"', '"b2"']);
    expect(readdirSync(folder).sort()).toEqual(['b1', 'b2']);
    // Saved in order b1, b2, b3, b4 (an hour ago, a second apart), then b5: b1's goes.
    const anHourAgo = Date.now() / 1000 - 3600;
    for (const [i, build] of ['b3', 'b4', 'b5'].entries()) {
      keep(build);
      for (const [j, earlier] of ['b1', 'b2', 'b3', 'b4'].entries()) if (existsSync(path.join(folder, earlier))) utimesSync(path.join(folder, earlier), anHourAgo + j, anHourAgo + j);
      expect(readdirSync(folder).length).toBe(i < 2 ? i + 3 : 4);
    }
    expect(readdirSync(folder).sort()).toEqual(['b2', 'b3', 'b4', 'b5']);
  });

  it('keeps what this run read, owner-only, for the next run of the same build to recall', () => {
    const folder = tempDir('steward-ya-');
    const run1 = yamlAnswerFile(folder, 'b1', 'check')!;
    expect(run1.recall('a.yaml', 'k: 1\n')).toBeUndefined();
    run1.track('a.yaml', 'k: 1\n', answers([['data', { data: { k: 1 }, problems: [] }]]));
    run1.track('b.yaml', 'x: .nan\n', () => null);
    expect(run1.save()).toBe(1);
    // In a folder of the build's own (code-cache.ts pruneBuilds).
    expect(readdirSync(folder)).toEqual(['b1']);
    expect(readdirSync(path.join(folder, 'b1'))).toEqual(['check.json']);
    if (process.platform !== 'win32') {
      expect(statSync(path.join(folder, 'b1', 'check.json')).mode & 0o777).toBe(0o600);
      expect(statSync(path.join(folder, 'b1')).mode & 0o777).toBe(0o700);
    }

    const run2 = yamlAnswerFile(folder, 'b1', 'check')!;
    expect(run2.recall('a.yaml', 'k: 1\n')).toEqual(new Map([['data', '{"data":{"k":1},"problems":[]}']]));
    // Another text, another display path, another command: nothing.
    expect(run2.recall('a.yaml', 'k: 2\n')).toBeUndefined();
    expect(run2.recall('./a.yaml', 'k: 1\n')).toBeUndefined();
    expect(yamlAnswerFile(folder, 'b1', 'validate')!.recall('a.yaml', 'k: 1\n')).toBeUndefined();
    // Nothing asked that was not kept: nothing written.
    run2.track('a.yaml', 'k: 1\n', () => run2.recall('a.yaml', 'k: 1\n')!);
    const before = statSync(path.join(folder, 'b1', 'check.json')).mtimeMs;
    expect(run2.save()).toBe(0);
    expect(statSync(path.join(folder, 'b1', 'check.json')).mtimeMs).toBe(before);
  });

  it('writes again when a file asks something new, keeping only the files this run read', () => {
    const folder = tempDir('steward-ya-');
    const run1 = yamlAnswerFile(folder, 'b1', 'check')!;
    run1.recall('a.yaml', 'a');
    run1.track('a.yaml', 'a', answers([['q1', 1]]));
    run1.track('gone.yaml', 'g', answers([['q1', 1]]));
    expect(run1.save()).toBe(2);
    const run2 = yamlAnswerFile(folder, 'b1', 'check')!;
    run2.recall('a.yaml', 'a');
    run2.track('a.yaml', 'a', answers([['q1', 1], ['q2', 2]]));
    expect(run2.save()).toBe(1);
    const run3 = yamlAnswerFile(folder, 'b1', 'check')!;
    expect(run3.recall('a.yaml', 'a')?.get('q2')).toBe('2');
    expect(run3.recall('gone.yaml', 'g')).toBeUndefined();
  });

  it('writes again when an answer is given in place of a kept one (a damaged answer computed afresh), and not when nothing changed', () => {
    const folder = tempDir('steward-ya-');
    const run1 = yamlAnswerFile(folder, 'b1', 'check')!;
    run1.recall('a.yaml', 'a');
    run1.track('a.yaml', 'a', () => new Map([['q1', '{"n":1'], ['q2', '2']]));
    expect(run1.save()).toBe(1);
    // The same queries, one answered anew (its kept JSON was damaged): the file is written again.
    const run2 = yamlAnswerFile(folder, 'b1', 'check')!;
    expect(run2.recall('a.yaml', 'a')?.get('q1')).toBe('{"n":1');
    run2.track('a.yaml', 'a', () => new Map([['q1', '{"n":1}'], ['q2', '2']]));
    expect(run2.save()).toBe(1);
    const run3 = yamlAnswerFile(folder, 'b1', 'check')!;
    const kept = run3.recall('a.yaml', 'a')!;
    expect(kept.get('q1')).toBe('{"n":1}');
    run3.track('a.yaml', 'a', () => kept);
    expect(run3.save()).toBe(0);
  });

  it('recalls nothing another build answered, and nothing from a file it cannot read', () => {
    const folder = tempDir('steward-ya-');
    const run1 = yamlAnswerFile(folder, 'b1', 'check')!;
    run1.track('a.yaml', 'a', answers([['q', 1]]));
    run1.save();
    expect(yamlAnswerFile(folder, 'b2', 'check')!.recall('a.yaml', 'a')).toBeUndefined();
    for (const damaged of ['{', 'null', '{"build":"b1"}', '{"build":"b1","entries":[{"file":"a.yaml","text":"a","answers":7}]}']) {
      writeFileSync(path.join(folder, 'b1', 'check.json'), damaged);
      expect(yamlAnswerFile(folder, 'b1', 'check')!.recall('a.yaml', 'a')).toBeUndefined();
    }
    // An entry of another shape is passed over, never read as a file named "1" or a text "7", and the good ones still count.
    const good = { file: 'a.yaml', text: 'a', answers: [['q', '1']] };
    const bad = [{ file: 1, text: 'a', answers: [['q', '1']] }, { file: 'a.yaml', text: 7, answers: [['q', '1']] }, { file: 'b.yaml', text: 'b', answers: 7 }];
    writeFileSync(path.join(folder, 'b1', 'check.json'), JSON.stringify({ build: 'b1', entries: [...bad, good] }));
    const store = yamlAnswerFile(folder, 'b1', 'check')!;
    expect([store.recall('1', 'a'), store.recall('a.yaml', '7'), store.recall('b.yaml', 'b')]).toEqual([undefined, undefined, undefined]);
    expect(store.recall('a.yaml', 'a')).toEqual(new Map([['q', '1']]));
  });

  it('keeps what every reading of a file was asked, and nothing of a file one reading could not keep', () => {
    const folder = tempDir('steward-ya-');
    const run = yamlAnswerFile(folder, 'b1', 'check')!;
    run.track('a.yaml', 'a', answers([['q1', 1]]));
    run.track('a.yaml', 'a', answers([['q2', 2]]));
    run.track('n.yaml', 'n', answers([['q1', 1]]));
    run.track('n.yaml', 'n', () => null);
    expect(run.save()).toBe(1);
    const next = yamlAnswerFile(folder, 'b1', 'check')!;
    expect(next.recall('a.yaml', 'a')).toEqual(new Map([['q1', '1'], ['q2', '2']]));
    expect(next.recall('n.yaml', 'n')).toBeUndefined();
  });

  it.skipIf(process.getuid?.() === 0 || process.platform === 'win32')('never throws where it cannot write, and leaves no partial file', () => {
    const folder = tempDir('steward-ya-');
    const run = yamlAnswerFile(folder, 'b1', 'check')!;
    run.track('a.yaml', 'a', answers([['q', 1]]));
    chmodSync(folder, 0o500);
    try {
      expect(run.save()).toBe(0);
    } finally {
      chmodSync(folder, 0o700);
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it('removes, when it writes, the partial file a start killed while writing left an hour ago', () => {
    const folder = tempDir('steward-ya-');
    mkdirSync(path.join(folder, 'b1'));
    const left = path.join(folder, 'b1', 'check.json.4343.partial');
    const writing = path.join(folder, 'b1', 'check.json.4242.partial');
    writeFileSync(left, '{');
    writeFileSync(writing, '{');
    const old = new Date(Date.now() - 61 * 60_000);
    utimesSync(left, old, old);
    const run = yamlAnswerFile(folder, 'b1', 'check')!;
    run.track('a.yaml', 'a', answers([['q', 1]]));
    expect(run.save()).toBe(1);
    expect(readdirSync(path.join(folder, 'b1')).sort()).toEqual(['check.json', 'check.json.4242.partial']);
  });

  it('leaves no partial file where the folder went away', () => {
    const folder = tempDir('steward-ya-');
    const run = yamlAnswerFile(folder, 'b1', 'check')!;
    run.track('a.yaml', 'a', answers([['q', 1]]));
    rmSync(folder, { recursive: true });
    expect(run.save()).toBe(0);
    expect(existsSync(folder)).toBe(false);
  });
});

describe('the binary with kept answers', () => {
  /** A `check --from` of the demo copy in `dir`: exit code, the report without its times, the files recalled and read anew. */
  const check = (dir: string, env: NodeJS.ProcessEnv) => {
    const r = spawnSync(process.execPath, [CLI, 'check', '-c', path.join(dir, 'steward.yaml'), '--from', demoSnapshot(), '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...env, NODE_DEBUG: 'steward' },
    });
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    delete report.startedAt;
    delete report.durationMs;
    const said = (word: string) => [...r.stderr.matchAll(new RegExp(`^STEWARD \\d+: yaml (\\S+): answers ${word}$`, 'gm'))].map((m) => m[1]).sort();
    const validators = [...r.stderr.matchAll(/^STEWARD \d+: chunk (validators-[\w-]+\.cjs)/gm)].map((m) => m[1]).sort();
    return { status: r.status, report, recalled: said('recalled'), anew: said('not kept'), validators };
  };

  it('answers the second run from what the first kept, and an edited file anew: each report is the one a run without the store gives', () => {
    const dir = copyDemo();
    const home = tempDir('steward-ya-home-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: home, STEWARD_TOKEN: 'tok-kept-answers-sentinel' };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const off = { ...env, NODE_DISABLE_COMPILE_CACHE: '1' };
    const files = ['permissions/cards/margin-review.yaml', 'permissions/data-files/42.yaml', 'permissions/data-files/43.yaml', 'permissions/data-files/44.yaml', 'permissions/pages/team-home.yaml', 'permissions/queues/finance-intake.yaml', 'permissions/queues/hr-requests.yaml', 'permissions/queues/marketing.yaml', 'permissions/queues/support-escalations.yaml', 'steward.yaml', 'waivers.yaml'];
    const plain = check(dir, off);
    expect([plain.status, plain.recalled, plain.anew]).toEqual([1, [], []]);
    // The demo's policies are the built-in pack as the build parsed it: no policy is validated.
    expect(plain.validators).toEqual(['validators-answer.cjs', 'validators-config.cjs', 'validators-policies.cjs', 'validators-waivers.cjs']);

    const first = check(dir, env);
    expect(first).toEqual({ ...plain, recalled: [], anew: files });
    const [build] = readdirSync(path.join(home, 'steward', 'yaml-answers'));
    const kept = path.join(home, 'steward', 'yaml-answers', build!, 'check.json');
    const written = statSync(kept).mtimeMs;
    const second = check(dir, env);
    // Each file's validity recalled too: only the snapshot's answers are validated.
    expect(second).toEqual({ ...plain, recalled: files, anew: [], validators: ['validators-answer.cjs'] });
    // Every question was answered from the file: nothing new to write.
    expect(statSync(kept).mtimeMs).toBe(written);
    expect(readFileSync(kept, 'utf8')).not.toContain('tok-kept-answers-sentinel');

    // One parameter edited: that file is read anew, and the finding it decides goes.
    writeFileSync(path.join(dir, 'steward.yaml'), readFileSync(path.join(dir, 'steward.yaml'), 'utf8').replace('{ maxInvalid: 0 }', '{ maxInvalid: 100 }'));
    const edited = check(dir, env);
    expect(edited.anew).toEqual(['steward.yaml']);
    expect(edited.recalled).toEqual(files.filter((f) => f !== 'steward.yaml'));
    expect(edited.validators).toEqual(['validators-answer.cjs', 'validators-config.cjs']);
    expect({ ...edited, recalled: [], anew: [], validators: [] }).toEqual({ ...check(dir, off), recalled: [], anew: [], validators: [] });
    expect(edited.report).not.toEqual(plain.report);
  });
});
