// The functions steward adds to CEL (`isTimeZone`, `label`), once for both evaluators: cel.ts
// registers them with the reference engine and hands HOST_FUNCTIONS to the compiled closures.
import type { HostFunction } from './cel-closures.js';
import { CelFault } from './cel-values.js';

// Building an Intl.DateTimeFormat costs ~60 µs; a run asks about the same few zones thousands
// of times (one per schedule), so each name is checked once per process.
const timeZoneAnswers = new Map<string, boolean>();

export function isTimeZone(name: string): boolean {
  let known = timeZoneAnswers.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    timeZoneAnswers.set(name, known);
  }
  return known;
}

/**
 * `label(name, id)`: "Ana Ruiz (7)" when the name is a non-empty string, else the id alone ("7"):
 * live reads often carry no names, and a message never prints `null` or "7 (7)".
 */
export function label(name: unknown, id: unknown): string {
  const shown = typeof id === 'bigint' || typeof id === 'number' ? String(id) : typeof id === 'string' ? id : JSON.stringify(id ?? null);
  return typeof name === 'string' && name !== '' ? `${name} (${shown})` : shown;
}

export const HOST_FUNCTIONS: Readonly<Record<string, HostFunction>> = {
  isTimeZone: (args) => {
    if (args.length !== 1 || typeof args[0] !== 'string') throw new CelFault(`found no matching overload for 'isTimeZone'`);
    return isTimeZone(args[0]);
  },
  label: (args) => {
    if (args.length !== 2) throw new CelFault(`found no matching overload for 'label'`);
    return label(args[0], args[1]);
  },
};
