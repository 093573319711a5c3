// Which config a command runs with when `--config` is not given: the nearest steward.yaml from
// the cwd up to the repository root (said on stderr when it is not in the cwd). With none found
// and no policy paths named, the command is exit 2 naming where it looked: running the built-in
// pack with defaults is chosen with `--config builtin`, never fallen into.
import path from 'node:path';
import { BUILTIN_CONFIG, DEFAULT_CONFIG_FILE, displayPath, findConfig, InputError } from '../library/without-policies.js';
import { type CliIo, warn } from './io.js';

export function chosenConfig(flags: { config?: string; policies?: readonly string[] }, io: CliIo): string | undefined {
  if (flags.config) return flags.config;
  const found = findConfig(io.cwd);
  if (found.file) {
    if (path.dirname(found.file) !== path.resolve(io.cwd)) warn(io, `steward: using ${displayPath(found.file, io.cwd)}`);
    return found.file;
  }
  if (flags.policies && flags.policies.length > 0) return undefined;
  const where = found.looked.map((d) => (d === path.resolve(io.cwd) ? '.' : displayPath(d, io.cwd))).join(', ');
  throw new InputError([
    {
      file: '--config',
      line: 0,
      column: 0,
      message: `no ${DEFAULT_CONFIG_FILE} found (looked in ${where}; a repository is searched up to its root): run \`steward init\`, pass --config FILE, or --config ${BUILTIN_CONFIG} to run the built-in pack with every default`,
    },
  ]);
}
