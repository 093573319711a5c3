// The functions steward adds to CEL, called directly: isTimeZone's answers, and which of them
// needed an Intl.DateTimeFormat (the first costs ~9 ms of a run); label's; and HOST_FUNCTIONS,
// the two as compiled expressions call them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CelFault } from '../../src/policy/cel-values.js';
import { HOST_FUNCTIONS, isTimeZone, label } from '../../src/policy/host-functions.js';
import { TZDB_NAMES } from '../../src/policy/tzdb-names.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Whether this Node's Intl takes `name` as a time zone (any case: ICU matches without it). */
function intlAccepts(name: string): boolean {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone !== '';
  } catch {
    return false;
  }
}

describe('isTimeZone', () => {
  it('answers every name of the tz database, links and UTC included, without building a DateTimeFormat', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    // ICU lists Asia/Calcutta, tzdb's zone is Asia/Kolkata: both are tzdb's names.
    expect(['Europe/Berlin', 'America/Sao_Paulo', 'Asia/Calcutta', 'Asia/Kolkata', 'US/Pacific', 'Pacific/Auckland', 'UTC'].map(isTimeZone)).toEqual(Array(7).fill(true));
    expect(built).not.toHaveBeenCalled();
  });

  it("refuses a tz database name in another letter case, though Intl takes it, without building a DateTimeFormat", () => {
    const variants = ['europe/paris', 'EUROPE/PARIS', 'Europe/paris', 'us/pacific', 'asia/kolkata', 'utc', 'Utc', 'etc/gmt+5', 'america/port-au-prince', 'America/Port-Au-Prince'];
    expect(variants.filter((name) => !intlAccepts(name))).toEqual([]);
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    expect(variants.filter(isTimeZone)).toEqual([]);
    expect(built).not.toHaveBeenCalled();
  });

  it('takes a name a later tz database adds when this Node\'s Intl knows it', () => {
    // No Node here knows a name outside tzdb 2026c (the test below): this one stands for a newer ICU's.
    const Real = Intl.DateTimeFormat;
    const built = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (this: unknown, locale?: string | string[], options?: Intl.DateTimeFormatOptions) {
      const format = new Real(locale, { ...options, timeZone: options?.timeZone === 'America/Newer_Zone' ? 'UTC' : options?.timeZone });
      return format;
    } as unknown as typeof Intl.DateTimeFormat);
    expect(['America/Newer_Zone', 'america/newer_zone', 'America/Other_Zone'].map(isTimeZone)).toEqual([true, false, false]);
    expect(built).toHaveBeenCalledTimes(3);
  });

  it('puts a name in no case of the tz database to a DateTimeFormat, once per name', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    // (Names no other test asks: the answers are kept per process, and the suite shares one.)
    expect(['Europe/Atlantis', 'no zone', 'Europe/Berlin '].map(isTimeZone)).toEqual([false, false, false]);
    expect(built).toHaveBeenCalledTimes(3);
    expect(['Europe/Atlantis', 'no zone'].map(isTimeZone)).toEqual([false, false]);
    expect(built).toHaveBeenCalledTimes(3);
  });

  it('takes no UTC offset for a zone, on every Node (Node 24\'s DateTimeFormat accepts one, Node 20\'s does not)', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    expect(['+05:00', '-08:00', '-0800', '+05', '\u221205:00', '+00:00', '+UTC', '-Europe/Berlin'].map(isTimeZone)).toEqual(Array(8).fill(false));
    expect(built).not.toHaveBeenCalled();
    // The tz database's own offset names stay zones.
    expect(['Etc/GMT+5', 'Etc/GMT-14'].map(isTimeZone)).toEqual([true, true]);
  });

  it("takes none of the names ICU adds to the tz database's, though Intl accepts each, in any case", () => {
    // ICU's icu4c/source/tools/tzcode/icuzones: its legacy links and System V zones; the two names tzdb dropped.
    const legacy = ['ACT', 'AET', 'AGT', 'ART', 'AST', 'BET', 'BST', 'CAT', 'CNT', 'CST', 'CTT', 'EAT', 'ECT', 'IET', 'IST', 'JST', 'MIT', 'NET', 'NST', 'PLT', 'PNT', 'PRT', 'PST', 'SST', 'VST'];
    const systemV = ['AST4ADT', 'EST5EDT', 'CST6CDT', 'MST7MDT', 'PST8PDT', 'YST9YDT', 'AST4', 'EST5', 'CST6', 'MST7', 'PST8', 'YST9', 'HST10'].map((z) => `SystemV/${z}`);
    const icuOnly = [...legacy, ...systemV, 'Canada/East-Saskatchewan', 'US/Pacific-New'];
    expect(icuOnly.filter((name) => !intlAccepts(name))).toEqual([]);
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    const spellings = [...icuOnly, 'pst', 'Bet', 'systemv/pst8pdt', 'us/pacific-new'];
    expect(spellings.filter(isTimeZone)).toEqual([]);
    expect(built).not.toHaveBeenCalled();
    // The tz database's own short names and links stay zones.
    expect(['EST', 'MST', 'HST', 'CET', 'EET', 'MET', 'WET', 'CST6CDT', 'US/Pacific', 'Canada/Saskatchewan'].map(isTimeZone)).toEqual(Array(10).fill(true));
  });
});

describe('isTimeZone and the areas of the tz database', () => {
  it('refuses a name in no area of the tz database without building a DateTimeFormat, in any case', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    // `Ut` and `Gm` begin names without an area (UTC, GMT): they are no areas either.
    expect(['Mars/Olympus', 'Venus/Maxwell_Montes', 'moon/tranquility', 'Earth/Berlin', 'Europa/Berlin', 'Zulu/Zulu', 'Ut/Berlin', 'Gm/Berlin'].map(isTimeZone)).toEqual(Array(8).fill(false));
    expect(built).not.toHaveBeenCalled();
  });

  it("takes every tz database name in its own case only; Intl takes every one and lists none outside them; no area is missing", () => {
    expect(TZDB_NAMES.length).toBe(597);
    expect([...TZDB_NAMES].sort()).toEqual(TZDB_NAMES);
    // Every name Intl lists on this Node is one of tzdb's, and Intl takes every one of them.
    expect(Intl.supportedValuesOf('timeZone').filter((name) => !TZDB_NAMES.includes(name))).toEqual([]);
    expect(TZDB_NAMES.filter((name) => !intlAccepts(name))).toEqual([]);
    // Every area the names use, and every one Intl lists a zone in.
    const areas = new Set([...TZDB_NAMES, ...Intl.supportedValuesOf('timeZone')].filter((n) => n.includes('/')).map((n) => n.split('/')[0]));
    expect([...areas].sort()).toEqual(['Africa', 'America', 'Antarctica', 'Arctic', 'Asia', 'Atlantic', 'Australia', 'Brazil', 'Canada', 'Chile', 'Etc', 'Europe', 'Indian', 'Mexico', 'Pacific', 'US']);
    expect(TZDB_NAMES.filter((name) => !isTimeZone(name))).toEqual([]);
    const otherCase = TZDB_NAMES.flatMap((name) => [name.toUpperCase(), name.toLowerCase()]).filter((name) => !TZDB_NAMES.includes(name));
    expect(otherCase.length).toBeGreaterThan(1000);
    expect(otherCase.filter(isTimeZone)).toEqual([]);
  });
});

describe('label', () => {
  it('names an id when there is a name, and shows the id alone otherwise', () => {
    expect([label('Ana Ruiz', 7), label('', 7), label(null, 'g-1'), label('Ops', 12n), label(undefined, null)]).toEqual(['Ana Ruiz (7)', '7', 'g-1', 'Ops (12)', 'null']);
  });

  it('shows a number as CEL prints it, and any other id as JSON, never undefined', () => {
    expect([label(null, Number.POSITIVE_INFINITY), label('Ops', ['g', 1]), label('', undefined), label(null, { id: 3 })]).toEqual(['Infinity', 'Ops (["g",1])', 'null', '{"id":3}']);
  });
});

describe('HOST_FUNCTIONS (what compiled expressions call)', () => {
  const faultOf = (call: () => unknown): string | null => {
    try {
      call();
      return null;
    } catch (e) {
      return e instanceof CelFault ? e.message : String(e);
    }
  };

  it('answers a call with its overload, and is a CEL fault otherwise', () => {
    expect([HOST_FUNCTIONS.isTimeZone!(['UTC']), HOST_FUNCTIONS.label!(['Ana', 7])]).toEqual([true, 'Ana (7)']);
    const noTimeZone = "found no matching overload for 'isTimeZone'";
    expect([faultOf(() => HOST_FUNCTIONS.isTimeZone!([])), faultOf(() => HOST_FUNCTIONS.isTimeZone!(['UTC', 'UTC'])), faultOf(() => HOST_FUNCTIONS.isTimeZone!([5]))]).toEqual([noTimeZone, noTimeZone, noTimeZone]);
    const noLabel = "found no matching overload for 'label'";
    expect([faultOf(() => HOST_FUNCTIONS.label!(['Ana'])), faultOf(() => HOST_FUNCTIONS.label!(['Ana', 7, 8]))]).toEqual([noLabel, noLabel]);
  });
});
