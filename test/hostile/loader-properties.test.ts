// Every loader of user input (policy, config, manifest, waivers, baseline, snapshot, saved plan,
// fix journal) ends in a result or an InputError (exit 2) whose problems each name the file and
// a position; never another exception. Inputs: valid documents with random edits (the likely
// way a file goes wrong), random text, and random JSON. Run counts are printed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSnapshot } from '../../src/api/snapshot.js';
import { loadConfig } from '../../src/config/index.js';
import { InputError, type InputProblem } from '../../src/core/problem.js';
import { parseBaseline } from '../../src/engine/baseline.js';
import { parseWaivers } from '../../src/engine/waivers.js';
import { parsePlan } from '../../src/fix/render.js';
import { readResumeJournal } from '../../src/fix/resume.js';
import { checkPolicyText } from '../../src/policy/policy-set.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { parseManifest } from '../../src/resources/manifests.js';
import { copyDemo } from '../cli/helpers.js';

const RUNS = 250;
const ROOT = new URL('../..', import.meta.url).pathname;
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Pieces that break YAML and JSON in interesting ways. */
const NASTY = ['\n', ': ', '- ', '{', '}', '[', ']', '"', "'", '&a ', '*a', '!!binary ', '\t', '#', '---\n', '__proto__: 1\n', '\u0000', '\uFEFF', '\\u0000', '<<: *a', '? ', '|\n', '1e309', '-0', '0x10', '\u202e'];
const edit = fc.record({
  at: fc.nat(),
  remove: fc.nat({ max: 6 }),
  insert: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...NASTY)),
});

/** The seed with up to 4 random edits, random text, or random JSON. */
function inputs(seed: string): fc.Arbitrary<string> {
  const edited = fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) =>
    edits.reduce((text, e) => {
      const at = e.at % (text.length + 1);
      return text.slice(0, at) + e.insert + text.slice(at + e.remove);
    }, seed),
  );
  return fc.oneof(
    { weight: 6, arbitrary: edited },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 2)) },
  );
}

/** A result, or InputError problems that each name `file` (or a flag) with a whole position. */
function endsWell(file: string, run: () => InputProblem[] | undefined): void {
  let problems: InputProblem[] | undefined;
  try {
    problems = run();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    problems = e.problems;
    expect(problems.length).toBeGreaterThan(0);
  }
  for (const p of problems ?? []) {
    expect(typeof p.message === 'string' && p.message.length > 0).toBe(true);
    expect(Number.isInteger(p.line) && p.line >= 0 && Number.isInteger(p.column) && p.column >= 0).toBe(true);
    if (p.file === file) expect(p.line).toBeGreaterThanOrEqual(1);
  }
}

function property(name: string, seed: string, check: (text: string) => void): void {
  it(`${name}: ${RUNS} runs end in a result or exit 2 with a position`, () => {
    fc.assert(fc.property(inputs(seed), check), { numRuns: RUNS });
    console.log(`property: ${name} loader: ${RUNS} runs, every one a result or exit 2 at a position`);
  });
}

describe('loaders under random input', () => {
  property('policy', read('policies/datasets.yaml'), (text) =>
    endsWell('p.yaml', () => checkPolicyText(text, 'p.yaml', { kinds: RESOURCE_KINDS })),
  );

  property('queue manifest', read('demo/permissions/queues/finance-intake.yaml'), (text) =>
    endsWell('q.yaml', () => parseManifest('queue', text, 'q.yaml').problems),
  );

  property('data-file manifest', read('demo/permissions/data-files/42.yaml'), (text) =>
    endsWell('d.yaml', () => parseManifest('dataFile', text, 'd.yaml').problems),
  );

  property('waivers', read('demo/waivers.yaml'), (text) =>
    endsWell('w.yaml', () => {
      parseWaivers(text, 'w.yaml');
      return undefined;
    }),
  );

  const baseline = {
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    fingerprints: ['a1b2'],
    entries: { a1b2: { policy: 'p', resource: { kind: 'queue', id: 'q-1' }, path: null, message: 'm' } },
  };
  property('baseline', JSON.stringify(baseline, null, 2), (text) =>
    endsWell('b.json', () => {
      parseBaseline(text, 'b.json');
      return undefined;
    }),
  );

  const snapshot = {
    version: 1,
    instance: 'https://x.example',
    recordedAt: '2026-01-01T00:00:00.000Z',
    answers: [
      { operation: 'getMisconfiguredReports', args: [], value: [] },
      { operation: 'listReportSchedules', args: [], pages: [[{ id: 1, title: 't' }]] },
      { operation: 'getQueuePermissions', args: ['q-1'], error: { message: 'm', status: 404 } },
    ],
  };
  property('snapshot', JSON.stringify(snapshot, null, 2), (text) =>
    endsWell('s.json', () => {
      parseSnapshot(text, 's.json');
      return undefined;
    }),
  );

  property('saved plan', JSON.stringify({ id: 'p', instance: 'x', changes: [], manifests: [] }, null, 2), (text) =>
    endsWell('plan.json', () => {
      parsePlan(text, 'plan.json');
      return undefined;
    }),
  );

  const demo = copyDemo();
  const entry = {
    time: '2026-01-01T00:00:00.000Z',
    planId: 'p',
    change: 1,
    policies: ['x'],
    resource: { kind: 'queue', id: 'q-1' },
    request: { method: 'POST', path: '/x', body: {} },
    before: null,
    status: 'applied',
  };
  property('fix journal', `${JSON.stringify(entry)}\n${JSON.stringify({ ...entry, change: 2 })}\n`, (text) => {
    const file = path.join(demo, 'j.jsonl');
    writeFileSync(file, text);
    endsWell('j.jsonl', () => {
      readResumeJournal(file, 'j.jsonl');
      return undefined;
    });
  });

  property('config', read('demo/steward.yaml'), (text) => {
    const file = path.join(demo, 'steward.yaml');
    writeFileSync(file, text);
    endsWell('steward.yaml', () => {
      loadConfig({ configPath: file, cwd: demo, env: {} });
      return undefined;
    });
  });
});
