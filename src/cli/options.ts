// Flag parsers shared by commands. A bad value throws InvalidArgumentError, which main turns
// into exit 2 with commander's message ("option '--fail-on <level>' argument 'x' is invalid…").
import { InvalidArgumentError } from 'commander';
import { type FailOn, SEVERITIES, type Severity } from '../library/index.js';

export const FAIL_ON_VALUES: readonly FailOn[] = [...SEVERITIES, 'none'];

export function parseFailOn(value: string): FailOn {
  if (!(FAIL_ON_VALUES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of: ${FAIL_ON_VALUES.join(', ')}.`);
  }
  return value as FailOn;
}

/** `--severity high,critical`: the severities a run reports (repeatable, comma lists). */
export function parseSeverities(value: string, previous: Severity[] = []): Severity[] {
  const levels = value.split(',').map((v) => v.trim()).filter(Boolean);
  const wrong = levels.filter((l) => !(SEVERITIES as readonly string[]).includes(l));
  if (levels.length === 0 || wrong.length > 0) throw new InvalidArgumentError(`must be one or more of: ${SEVERITIES.join(', ')} (comma-separated).`);
  return [...new Set([...previous, ...(levels as Severity[])])];
}

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

/** Repeatable without comma splitting (paths may contain commas). */
export function collectRaw(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export interface OutputTarget {
  format: string;
  path: string;
}

/** `--output sarif=out/steward.sarif`, repeatable; the format must be one of `formats`. */
export function outputParser(formats: readonly string[]) {
  return (value: string, previous: OutputTarget[] = []): OutputTarget[] => {
    const eq = value.indexOf('=');
    const format = eq > 0 ? value.slice(0, eq) : '';
    const path = eq > 0 ? value.slice(eq + 1) : '';
    if (!format || !path) throw new InvalidArgumentError(`expected FORMAT=PATH, e.g. sarif=steward.sarif (formats: ${formats.join(', ')}).`);
    if (!formats.includes(format)) throw new InvalidArgumentError(`unknown format "${format}" (formats: ${formats.join(', ')}).`);
    return [...previous, { format, path }];
  };
}

export function formatParser(formats: readonly string[]) {
  return (value: string): string => {
    if (!formats.includes(value)) throw new InvalidArgumentError(`must be one of: ${formats.join(', ')}.`);
    return value;
  };
}
