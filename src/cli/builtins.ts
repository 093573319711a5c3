// The entry's Node built-ins, loaded as `require` loads them. An ES import of a built-in makes
// Node read every export of it (for `node:fs`, `fs.promises` and `fs.ReadStream`, which load
// fs/promises, readline and the streams) at every start, `--version` included: on Node 24, 0.6 %
// of `check --from`'s CPU and 1.2 % of `validate`'s (paired, 16 rounds; BENCHMARKS.md, the
// 2026-11-27 21:17 UTC paragraph).
import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';
import type * as Os from 'node:os';
import type * as Path from 'node:path';
import type * as Url from 'node:url';
import type * as Util from 'node:util';
import type * as Vm from 'node:vm';

const load = createRequire(import.meta.url);

export { createRequire };

export const fs = load('node:fs') as typeof Fs;
export const os = load('node:os') as typeof Os;
export const path = load('node:path') as typeof Path;
export const url = load('node:url') as typeof Url;
export const util = load('node:util') as typeof Util;
export const vm = load('node:vm') as typeof Vm;
