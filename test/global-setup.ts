// The binary's own tests (start-up, stdin, the tarball, a killed run) spawn the BUILT
// dist/cli.js, so the build runs once before them, unless dist/ is newer than every source
// (`npm test` has just built it). Runs that select only other folders skip it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

export default function setup(): void {
  const filters = process.argv.slice(2).filter((a) => a.startsWith('test/') || a.startsWith('./test/'));
  if (filters.length > 0 && !filters.some((f) => /^(\.\/)?test\/(cli|package|history|action)/.test(f))) return;
  if (builtIsFresh()) return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}
