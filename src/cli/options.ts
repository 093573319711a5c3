// Flag parsers shared by commands. A bad value throws InvalidArgumentError, which main turns
// into exit 2 with commander's message ("option '--fail-on <level>' argument 'x' is invalid…").
import { InvalidArgumentError } from 'commander';
import { type FailOn, SEVERITIES, type Severity } from '../library/startup.js';
import { GROUP_BY, type GroupBy } from '../report/format-names.js';

export const FAIL_ON_VALUES: readonly FailOn[] = [...SEVERITIES, 'none'];

/**
 * What a flag's value completes to, carried by its parser (commander keeps the parser as the
 * option's `parseArg`), so `steward completion` reads it where the flag is declared: a fixed
 * list, or the ids of the policies the config loads.
 */
export type Completes = readonly string[] | 'policy-ids';

function completing<F extends (...args: never[]) => unknown>(parse: F, completes: Completes): F & { completes: Completes } {
  return Object.assign(parse, { completes });
}

export const parseFailOn = completing((value: string): FailOn => {
  if (!(FAIL_ON_VALUES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of: ${FAIL_ON_VALUES.join(', ')}.`);
  }
  return value as FailOn;
}, FAIL_ON_VALUES);

/** `--severity high,critical`: the severities a run reports (repeatable, comma lists). */
export const parseSeverities = completing((value: string, previous: Severity[] = []): Severity[] => {
  const levels = value.split(',').map((v) => v.trim()).filter(Boolean);
  const wrong = levels.filter((l) => !(SEVERITIES as readonly string[]).includes(l));
  if (levels.length === 0 || wrong.length > 0) throw new InvalidArgumentError(`must be one or more of: ${SEVERITIES.join(', ')} (comma-separated).`);
  return [...new Set([...previous, ...(levels as Severity[])])];
}, SEVERITIES);

/** `--group-by owner`: how text, markdown and HTML reports group findings. */
export const parseGroupBy = completing((value: string): GroupBy => {
  if (!(GROUP_BY as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of: ${GROUP_BY.join(', ')}.`);
  return value as GroupBy;
}, GROUP_BY);

export function parsePositiveInt(max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1 || n > max) throw new InvalidArgumentError(`must be a whole number from 1 to ${max}.`);
    return n;
  };
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be a port number from 0 to 65535.');
  return n;
}

export function parseSeed(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number.');
  return Number(value);
}

/** For repeatable flags: `--only a --only b` (and `--only a,b`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/** `--only`/`--skip`: policy ids, repeatable and comma lists. */
export const collectPolicyIds = completing((value: string, previous: string[] = []): string[] => collect(value, previous), 'policy-ids');

/** Repeatable without comma splitting (paths may contain commas). */
export function collectRaw(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export interface OutputTarget {
  format: string;
  path: string;
}

/**
 * The format a report file's name implies, longest suffix first (`.sarif.json` is SARIF, not
 * JSON). Only names that say one format unambiguously; any other needs `FORMAT=PATH`.
 */
export const FORMAT_BY_EXTENSION: readonly (readonly [suffix: string, format: string])[] = [
  ['.sarif.json', 'sarif'],
  ['.sarif', 'sarif'],
  ['.junit.xml', 'junit'],
  ['.xml', 'junit'],
  ['.json', 'json'],
  ['.html', 'html'],
  ['.htm', 'html'],
  ['.md', 'markdown'],
  ['.markdown', 'markdown'],
  ['.txt', 'text'],
  ['.csv', 'csv'],
];

/**
 * `--output sarif=out/steward.sarif`, or `--output out/steward.sarif` (the format from the
 * name's extension), repeatable; the format must be one of `formats`. A prefix before `=` that
 * is no format is part of the path when it names a folder (`--output out/a=b.json` is JSON); a
 * bare word is a mistyped format (`sarf=out.sarif` would write the file `sarf=out.sarif`, and a
 * workflow would upload an older `out.sarif`).
 */
export function outputParser(formats: readonly string[]) {
  return (value: string, previous: OutputTarget[] = []): OutputTarget[] => {
    const eq = value.indexOf('=');
    const named = eq > 0 ? value.slice(0, eq) : '';
    if (named && formats.includes(named)) {
      const path = value.slice(eq + 1);
      if (!path) throw new InvalidArgumentError(`expected FORMAT=PATH, e.g. sarif=steward.sarif (formats: ${formats.join(', ')}).`);
      return [...previous, { format: named, path }];
    }
    if (/^[a-z]+$/i.test(named)) {
      throw new InvalidArgumentError(`unknown format "${named}" (formats: ${formats.join(', ')}); a file whose name holds "=" is given with its folder: ./${value}.`);
    }
    const lower = value.toLowerCase();
    const inferred = FORMAT_BY_EXTENSION.find(([suffix, format]) => lower.endsWith(suffix) && formats.includes(format));
    if (inferred && value.length > inferred[0].length) return [...previous, { format: inferred[1], path: value }];
    const known = FORMAT_BY_EXTENSION.filter(([, f]) => formats.includes(f)).map(([suffix]) => suffix);
    throw new InvalidArgumentError(`expected FORMAT=PATH, e.g. sarif=steward.sarif, or a file named ${known.join(', ')} (formats: ${formats.join(', ')}).`);
  };
}

export function formatParser(formats: readonly string[]) {
  return completing((value: string): string => {
    if (!formats.includes(value)) throw new InvalidArgumentError(`must be one of: ${formats.join(', ')}.`);
    return value;
  }, formats);
}
