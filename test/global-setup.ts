// The binary's own tests (start-up, stdin, the tarball, a killed run) spawn the BUILT
// dist/cli.js, so the build runs once before them, unless dist/ is newer than every source
// (`npm test` has just built it). Runs that select only other folders skip it.
//
// Every temporary folder of the run goes under one of its own (TMPDIR, which os.tmpdir()
// reads), removed when the run ends: the suite makes thousands, and a day of mutation runs left
// 89,000 in /tmp and filled the disk.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCES = ['src', 'scripts', 'policies', 'package.json', 'tsconfig.json', 'tsconfig.types.json'];

function newestMtime(p: string): number {
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(p).map((name) => newestMtime(path.join(p, name))));
}

function builtIsFresh(): boolean {
  const built = path.join(ROOT, 'dist/cli.js');
  if (!existsSync(built)) return false;
  return statSync(built).mtimeMs >= Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
}

export default function setup(): () => void {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'steward-test-run-'));
  process.env.TMPDIR = runDir;
  // The binaries the suite starts keep Node's compile cache in the run's folder, not the home's.
  process.env.XDG_CACHE_HOME = path.join(runDir, 'cache');
  // Retried (a child that outlived its test may still be writing in it), and also at exit: one
  // run in a few dozen left its folder behind with no error shown.
  const teardown = () => rmSync(runDir, { recursive: true, force: true, maxRetries: 5 });
  process.once('exit', teardown);
  const filters = process.argv.slice(2).filter((a) => a.startsWith('test/') || a.startsWith('./test/'));
  if (filters.length > 0 && !filters.some((f) => /^(\.\/)?test\/(cli|package|history|action)/.test(f))) return teardown;
  if (!builtIsFresh()) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  return teardown;
}
