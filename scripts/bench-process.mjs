// A whole process's cost as the process itself sees it: user + system CPU and peak RSS (VmHWM), written
// by a hook loaded with --import when the process exits (a check that finds violations exits 1:
// its cost counts the same).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './bench-median.mjs';

/** Median CPU ms and median peak RSS MB of `runs` runs of `node ...args`, and the last stdout. */
export function processUsage(args, { runs = 1, env = process.env } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-usage-'));
  const out = path.join(dir, 'usage.json');
  const hook = path.join(dir, 'usage-hook.mjs');
  writeFileSync(
    hook,
    // Peak RSS is the process's own VmHWM: getrusage's maxRSS also counts what a child inherits
    // from the process that forked it (a bench process of 1.5 GB made every child look large).
    `import { readFileSync, writeFileSync } from 'node:fs';\nconst hwm = () => { try { return Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024; } catch { return process.resourceUsage().maxRSS / 1024; } };\nprocess.on('exit', () => { const u = process.cpuUsage(); writeFileSync(${JSON.stringify(out)}, JSON.stringify({ cpuMs: (u.user + u.system) / 1000, rssMb: hwm() })); });\n`,
  );
  const cpu = [];
  const rss = [];
  let stdout = '';
  for (let i = 0; i < runs; i++) {
    try {
      stdout = execFileSync(process.execPath, ['--import', pathToFileURL(hook).href, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
    } catch (e) {
      if (e.status !== 1) throw e;
      stdout = e.stdout;
    }
    const u = JSON.parse(readFileSync(out, 'utf8'));
    cpu.push(u.cpuMs);
    rss.push(u.rssMb);
  }
  rmSync(dir, { recursive: true, force: true });
  return { cpuMs: median(cpu), rssMb: median(rss), stdout };
}
