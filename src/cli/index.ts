// The `steward` binary: all logic is in main.ts so tests and the library can run it in-process.
// `--version` alone answers before the program is loaded: loading its dependencies is most of
// the start-up time, and a version check (scripts, CI) needs none of them. The program is the
// build's chunks, loaded with V8's code cache (chunk-loader.ts).
import { fs, url, util } from './builtins.js';
import { cacheNameOf, chunkLoader } from './chunk-loader.js';
import { codeCacheFolder, yamlAnswersFolder } from './code-cache.js';
import type { CliIo } from './io.js';
import { endProcess } from './process-end.js';
import { standardOutputs } from './std-output.js';
import { tierUpLater } from './tiering.js';
import { yamlAnswerFile } from './yaml-answers.js';

// Written in place where it can be (std-output.ts); a reader that stops early (`steward list |
// head`) is no error of steward's, and the run keeps its exit code.
const outputs = standardOutputs();
// Stryker disable next-line StringLiteral: NODE_DEBUG is read at process start; test/cli/tiering.test.ts spawns the binary to read the log
const debug = util.debuglog('steward');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // dist/cli.js sits beside the package's package.json; reading it here keeps the library out.
  const { version } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  // The commit the binary was built from (scripts/build.mjs), when it was built in a git checkout.
  const commit = process.env.STEWARD_BUILD_COMMIT;
  outputs.stdout.write(commit ? `${version} (commit ${commit})\n` : `${version}\n`);
} else {
  // Before any chunk compiles: V8 keeps its flags with the code it compiles, and refuses kept code
  // compiled under others (tiering.ts).
  const command = cacheNameOf(args);
  debug('V8 tiers up later: %s', tierUpLater(command));
  const chunks = chunkLoader(url.fileURLToPath(new URL('./cli-chunks/', import.meta.url)), codeCacheFolder(process.env), command);
  let run: (argv: string[], io: CliIo) => Promise<number>;
  try {
    ({ run } = chunks.require('main.cjs') as { run: typeof run });
  } catch (error) {
    // A broken installation evaluates nothing: exit 3 (could not evaluate), never 1 (violations).
    outputs.stderr.write(`steward: could not load the program: ${(error as Error).message}\n`);
    process.exit(3);
  }
  // Named by the entry chunk's key, which changes with any chunk's code (their names are in it).
  const yamlAnswers = yamlAnswerFile(yamlAnswersFolder(process.env), chunks.keyOf('main.cjs'), command);
  const io: CliIo = {
    stdout: outputs.stdout,
    stderr: outputs.stderr,
    env: process.env,
    cwd: process.cwd(),
    ...(yamlAnswers ? { yamlAnswers } : {}),
  };
  process.exitCode = await run(process.argv, io);
  // Kept from a run that went through (0 pass, 1 violations): one stopped by bad input or an
  // unreachable instance ran little of its command, and the code kept is what a start reuses.
  if (process.exitCode <= 1) {
    chunks.saveCodeCache();
    yamlAnswers?.save();
    // Ended at once (process-end.ts). A run stopped by an error ends as Node ends it: a connection
    // it gave up on may hold an answer it never read, which an abrupt end has the kernel reset.
    await endProcess(outputs.streams());
  }
}
