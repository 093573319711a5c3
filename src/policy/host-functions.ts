// The functions steward adds to CEL (`isTimeZone`, `label`), once for both evaluators: cel.ts
// registers them with the reference engine and hands HOST_FUNCTIONS to the compiled closures.
import type { HostFunction } from './cel-closures.js';
import { CelFault } from './cel-values.js';
import { TZDB_NAMES } from './tzdb-names.js';

// A name is a zone when the tz database spells it so (TZDB_NAMES: tzdb 2026c, every name Intl
// lists among them), in its case: a scheduler that looks names up as spelled (Java's `ZoneId.of`)
// refuses `europe/paris`, and `TimeZone.getTimeZone` reads it as GMT, though Intl takes any case.
// A name in no case of that list may be one a later tzdb added: it is put to an
// Intl.DateTimeFormat, once it can be an IANA name (ICU also takes offsets, on Node 24, and names
// of its own, and a name in no area of the tz database is none: below). Building one costs
// ~60 µs, the first in a process ~27 ms on Node 24 (ICU loads its locale data), so each name is
// checked once per process: a run asks about the same few zones once per schedule.
const timeZoneAnswers = new Map<string, boolean>();

/**
 * TZDB_NAMES as isTimeZone asks them: the names; the names in lower case (another case of one is
 * refused); and their areas in lower case, the first part of every name that has one (theory.html:
 * "AREA is a continent or ocean"; `Etc`; `US`, `Canada`, `Mexico`, `Brazil` and `Chile` of
 * `backward`). A name in any other area (`Mars/Olympus`) is no zone, and is refused without a
 * DateTimeFormat: the first one in a process costs ~27 ms of a start on Node 24 (ICU loads its
 * date formatting data), and the demo's planted zone is such a name.
 */
let tzdb: TzdbSets | undefined;

interface TzdbSets {
  names: ReadonlySet<string>;
  lowerCase: ReadonlySet<string>;
  areas: ReadonlySet<string>;
}

function tzdbSetsOf(names: readonly string[]): TzdbSets {
  const lowerCase = new Set(names.map((n) => n.toLowerCase()));
  return { names: new Set(names), lowerCase, areas: new Set([...lowerCase].filter((n) => n.includes('/')).map((n) => n.slice(0, n.indexOf('/')))) };
}

/**
 * How every IANA name begins (tzdb's theory.html: a name's parts are ASCII letters, '.', '-' and
 * '_', and begin with no '-'; `Etc/GMT+5` too). A UTC offset (`+05:00`, `-0800`, `+05`) is no IANA
 * name, yet Node 24's DateTimeFormat takes it as a zone (ECMA-402 2024) where Node 20's refuses
 * it: without this the same schedule passed or failed by the Node that ran steward.
 */
const IANA_NAME_START = /^[A-Za-z]/;

/**
 * Names ICU, so Intl on every Node, takes as zones though they are no IANA names: the legacy
 * three-letter ids ICU adds for its own compatibility (icu4c/source/tools/tzcode/icuzones; its
 * `SystemV/…` zones are in no area of the tz database: TzdbSets), Canada/East-Saskatchewan and
 * US/Pacific-New, which tzdb dropped in 2017c and 2020b. Firefox's Intl refuses the same names
 * (SpiderMonkey's `legacyICUTimeZones`). "IST" is India, Israel or Ireland to whoever reads it, "CST" China or
 * Chicago: the hour such a schedule runs at is a guess. Lower case: Intl matches any case.
 */
const ICU_ONLY_ZONES: ReadonlySet<string> = new Set(
  ['ACT', 'AET', 'AGT', 'ART', 'AST', 'BET', 'BST', 'CAT', 'CNT', 'CST', 'CTT', 'EAT', 'ECT', 'IET', 'IST', 'JST', 'MIT', 'NET', 'NST', 'PLT', 'PNT', 'PRT', 'PST', 'SST', 'VST', 'Canada/East-Saskatchewan', 'US/Pacific-New'].map(
    (name) => name.toLowerCase(),
  ),
);

/** Whether `name` (`lower`: it in lower case) can be an IANA name at all (Intl says whether it is one). */
function ianaShaped(name: string, lower: string, areas: ReadonlySet<string>): boolean {
  const slash = lower.indexOf('/');
  return IANA_NAME_START.test(name) && !ICU_ONLY_ZONES.has(lower) && (slash === -1 || areas.has(lower.slice(0, slash)));
}

export function isTimeZone(name: string): boolean {
  let known = timeZoneAnswers.get(name);
  if (known === undefined) {
    tzdb ??= tzdbSetsOf(TZDB_NAMES);
    const { names, lowerCase, areas } = tzdb;
    const lower = name.toLowerCase();
    known = names.has(name) || (!lowerCase.has(lower) && ianaShaped(name, lower, areas) && acceptedByDateTimeFormat(name));
    timeZoneAnswers.set(name, known);
  }
  return known;
}

function acceptedByDateTimeFormat(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
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
