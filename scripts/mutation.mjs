// `npm run mutation`: Stryker once per group of scripts/mutation-groups.mjs (each group's mutants
// against its own tests), then the score per module from the JSON reports, written between the
// markers of MUTATION.md. `npm run mutation -- engine api` runs only those groups; `--force`
// re-tests every mutant: Stryker's incremental mode (with the vitest runner) kept a survivor's
// result after a new test file was added that kills it, so after adding tests run with --force.
// Exits non-zero when a group falls below the break threshold (stryker.config.mjs) or Stryker fails.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MUTATION_GROUPS } from './mutation-groups.mjs';

const force = process.argv.includes('--force');
const asked = process.argv.slice(2).filter((a) => a !== '--force');
const groups = asked.length ? MUTATION_GROUPS.filter((g) => asked.includes(g.name)) : MUTATION_GROUPS;
let failed = false;
// Tests read the folder beside the checkout (`../shared`: the JUnit schema, the platform's
// fixtures); from Stryker's sandbox, .stryker-tmp/sandbox-*/, that is .stryker-tmp/shared.
// Without it the report and redact groups' dry runs failed.
const shared = path.resolve('..', 'shared');
const sharedLink = path.join('.stryker-tmp', 'shared');
if (existsSync(shared) && !lstatSync(sharedLink, { throwIfNoEntry: false })) {
  mkdirSync('.stryker-tmp', { recursive: true });
  symlinkSync(shared, sharedLink);
}
for (const group of groups) {
  console.log(`\n=== mutation: ${group.name} (${group.mutate.join(', ')})`);
  const r = spawnSync(process.execPath, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', ...(force ? ['--force'] : [])], { stdio: 'inherit', env: { ...process.env, STEWARD_MUTATION_GROUP: group.name } });
  if (r.status !== 0) failed = true;
}

/** Stryker's score: killed and timed out over every mutant that ran or had no test (compile errors and ignored left out). */
function scores() {
  const rows = [];
  for (const group of MUTATION_GROUPS) {
    const file = `reports/mutation/${group.name}.json`;
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    for (const [path, { mutants }] of Object.entries(report.files)) {
      const count = (s) => mutants.filter((m) => m.status === s).length;
      const detected = count('Killed') + count('Timeout');
      const undetected = count('Survived') + count('NoCoverage');
      const total = detected + undetected;
      rows.push({ path, detected, undetected, score: total ? (100 * detected) / total : 100 });
    }
  }
  return rows;
}

/**
 * The rows MUTATION.md's table holds now, of modules a group still mutates: a run of some groups
 * (or on a clone without the others' reports) keeps the other modules' rows, where it wrote a
 * table of its own groups alone.
 */
function recordedRows(md) {
  const mutated = new Set(MUTATION_GROUPS.flatMap((g) => g.mutate));
  const table = /<!-- scores -->([\s\S]*)<!-- \/scores -->/.exec(md)?.[1] ?? '';
  return [...table.matchAll(/^\| `([^`]+)` \| (\d+) \| (\d+) \| ([\d.]+) % \|$/gm)]
    .map(([, path, detected, undetected, score]) => ({ path, detected: Number(detected), undetected: Number(undetected), score: Number(score) }))
    .filter((r) => mutated.has(r.path));
}

const measured = scores();
if (measured.length && existsSync('MUTATION.md')) {
  const md = readFileSync('MUTATION.md', 'utf8');
  const byPath = new Map([...recordedRows(md), ...measured].map((r) => [r.path, r]));
  const rows = [...byPath.values()].sort((a, b) => a.path.localeCompare(b.path));
  const table = [
    '| module | killed or timed out | survived or not covered | score |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| \`${r.path}\` | ${r.detected} | ${r.undetected} | ${r.score.toFixed(1)} % |`),
  ].join('\n');
  const next = md.replace(/<!-- scores -->[\s\S]*<!-- \/scores -->/, `<!-- scores -->\n${table}\n<!-- /scores -->`);
  writeFileSync('MUTATION.md', next);
  console.log(`\n${table}`);
}
process.exit(failed ? 1 : 0);
