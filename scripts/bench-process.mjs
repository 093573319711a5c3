// A whole process's cost as the process itself sees it: user + system CPU, minor page faults and
// peak RSS (VmHWM), written by a hook loaded with --import when the process exits (a check that
// finds violations exits 1: its cost counts the same).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './bench-median.mjs';

/**
 * Medians over `runs` runs of `node ...args`: CPU ms (user + system), the system part of it,
 * minor page faults (each page of memory first touched is one the kernel serves) and peak RSS
 * MB; and the last stdout and exit code. `node` is the binary (this process's unless named);
 * `exitCodes` are the non-zero codes a run may end with (a check finding violations: 1).
 */
export function processUsage(args, { runs = 1, env = process.env, node = process.execPath, exitCodes = [1] } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-usage-'));
  const out = path.join(dir, 'usage.json');
  const hook = path.join(dir, 'usage-hook.mjs');
  writeFileSync(
    hook,
    // Peak RSS is the process's own VmHWM: getrusage's maxRSS also counts what a child inherits
    // from the process that forked it (a bench process of 1.5 GB made every child look large).
    `import { readFileSync, writeFileSync } from 'node:fs';\nconst hwm = () => { try { return Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024; } catch { return process.resourceUsage().maxRSS / 1024; } };\nprocess.on('exit', () => { const u = process.cpuUsage(); const r = process.resourceUsage(); writeFileSync(${JSON.stringify(out)}, JSON.stringify({ cpuMs: (u.user + u.system) / 1000, sysMs: u.system / 1000, faults: r.minorPageFault, rssMb: hwm() })); });\n`,
  );
  const cpu = [];
  const sys = [];
  const faults = [];
  const rss = [];
  let stdout = '';
  let status = 0;
  for (let i = 0; i < runs; i++) {
    try {
      stdout = execFileSync(node, ['--import', pathToFileURL(hook).href, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
      status = 0;
    } catch (e) {
      if (!exitCodes.includes(e.status)) throw e;
      stdout = e.stdout;
      status = e.status;
    }
    const u = JSON.parse(readFileSync(out, 'utf8'));
    cpu.push(u.cpuMs);
    sys.push(u.sysMs);
    faults.push(u.faults);
    rss.push(u.rssMb);
  }
  rmSync(dir, { recursive: true, force: true });
  return { cpuMs: median(cpu), sysMs: median(sys), faults: median(faults), rssMb: median(rss), stdout, status };
}

/**
 * The other Node the package is tested on, when there is one: inside `npm run` this process is
 * Node 24 (the `node24` development dependency links `node`) and the machine's Node is the one
 * npm runs on (npm_node_execpath); run as `node scripts/bench.mjs`, the other is Node 24 (or,
 * run by Node 24 itself, the `node` on PATH).
 * Issue 29's start-up and memory rows are measured on both: their limits differ by Node.
 */
export function otherNode() {
  for (const bin of [process.env.npm_node_execpath, path.resolve('node_modules/node24/bin/node'), 'node']) {
    if (!bin || (bin !== 'node' && !existsSync(bin))) continue;
    try {
      const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
      if (version !== process.version) return { bin, version };
    } catch {
      // a binary that does not run here (another OS or CPU)
    }
  }
  return null;
}
