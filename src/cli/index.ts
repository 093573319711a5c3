// The `steward` binary: all logic is in main.ts so tests and the library can run it in-process.
// `--version` alone answers before the program is loaded: loading its dependencies is most of
// the start-up time, and a version check (scripts, CI) needs none of them.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { type EnableCompileCache, enableCompileCache } from './compile-cache.js';

enableCompileCache((module as { enableCompileCache?: EnableCompileCache }).enableCompileCache, process.env);

// A reader that stops early (`steward list | head`) is not an error of steward's.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // dist/cli.js sits beside the package's package.json; reading it here keeps the library out.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  // The commit the binary was built from (scripts/build.mjs), when it was built in a git checkout.
  const commit = process.env.STEWARD_BUILD_COMMIT;
  process.stdout.write(commit ? `${version} (commit ${commit})\n` : `${version}\n`);
} else {
  const { run } = await import('./main.js');
  process.exitCode = await run();
}
