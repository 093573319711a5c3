// `steward sandbox`: serve the emulated instance on 127.0.0.1 until SIGINT/SIGTERM, printing
// where it is and the (sandbox-only) token to use.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { parsePort, parseSeed } from '../options.js';
import { InputError } from '../../library/startup.js';
import { summaryOf } from './summaries.js';

interface SandboxFlags {
  port?: number;
  token?: string;
  seed?: number;
}

export function registerSandbox(program: Command, ctx: CliContext): void {
  program
    .command('sandbox')
    .description(summaryOf('sandbox'))
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .option('--token <token>', 'token the sandbox accepts (default: a random one)')
    .option('--seed <n>', 'seed of the generated data', parseSeed)
    .action(async (flags: SandboxFlags) => {
      // Loaded here: `steward sandbox --help` loads no emulated instance.
      const { describeSandbox, startSandbox } = await import('../../sandbox/index.js');
      const sandbox = await startSandbox({ port: flags.port, token: flags.token, seed: flags.seed }).catch((error: NodeJS.ErrnoException) => {
        // A port someone else holds is a bad flag, not a failure of the instance.
        if (error.code !== 'EADDRINUSE') throw error;
        throw new InputError([{ file: '--port', line: 0, column: 0, message: `127.0.0.1:${flags.port} is already in use: choose another --port, or leave it out for a free one` }]);
      });
      ctx.io.stdout.write(`${describeSandbox(sandbox)}\n\nPress Ctrl+C to stop.\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sandbox.close();
      ctx.exitCode = 0;
    });
}
