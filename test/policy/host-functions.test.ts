// The functions steward adds to CEL, called directly: isTimeZone's answers, and which of them
// needed an Intl.DateTimeFormat (the first costs ~9 ms of a run); label's; and HOST_FUNCTIONS,
// the two as compiled expressions call them.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CelFault } from '../../src/policy/cel-values.js';
import { HOST_FUNCTIONS, isTimeZone, label } from '../../src/policy/host-functions.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('isTimeZone', () => {
  it('answers the names Intl lists, and UTC, without building a DateTimeFormat', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    // ICU lists its canonical names: Asia/Calcutta, not Asia/Kolkata.
    expect(['Europe/Berlin', 'America/Sao_Paulo', 'Asia/Calcutta', 'Pacific/Auckland', 'UTC'].map(isTimeZone)).toEqual([true, true, true, true, true]);
    expect(built).not.toHaveBeenCalled();
  });

  it('puts aliases, other spellings and non-zones to a DateTimeFormat, once per name', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    // Aliases and a lower-case spelling are zones Intl accepts though it does not list them.
    // (Names no other test asks: the answers are kept per process, and the suite shares one.)
    expect(['Asia/Kolkata', 'US/Pacific', 'europe/paris', 'Europe/Atlantis', 'no zone', 'Europe/Berlin '].map(isTimeZone)).toEqual([true, true, true, false, false, false]);
    expect(built).toHaveBeenCalledTimes(6);
    expect(['Asia/Kolkata', 'Europe/Atlantis'].map(isTimeZone)).toEqual([true, false]);
    expect(built).toHaveBeenCalledTimes(6);
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
    const intlAccepts = (name: string) => {
      try {
        return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone !== '';
      } catch {
        return false;
      }
    };
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
  const intlAccepts = (name: string) => {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone !== '';
    } catch {
      return false;
    }
  };

  it('refuses a name in no area of the tz database without building a DateTimeFormat, in any case', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    expect(['Mars/Olympus', 'Venus/Maxwell_Montes', 'moon/tranquility', 'Earth/Berlin', 'Europa/Berlin', 'Zulu/Zulu'].map(isTimeZone)).toEqual(Array(6).fill(false));
    expect(built).not.toHaveBeenCalled();
  });

  it("takes every name Intl takes of the tz database's links and Etc zones, in any case: no area is missing", () => {
    const names = readFileSync('test/fixtures/tzdb-link-names.txt', 'utf8').split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(names.length).toBeGreaterThan(250);
    // Every area the names use, and every one Intl lists a zone in.
    const areas = new Set([...names, ...Intl.supportedValuesOf('timeZone')].filter((n) => n.includes('/')).map((n) => n.split('/')[0]));
    expect([...areas].sort()).toEqual(['Africa', 'America', 'Antarctica', 'Arctic', 'Asia', 'Atlantic', 'Australia', 'Brazil', 'Canada', 'Chile', 'Etc', 'Europe', 'Indian', 'Mexico', 'Pacific', 'US']);
    const accepted = names.filter(intlAccepts);
    expect(accepted.length).toBeGreaterThan(250);
    expect(accepted.filter((name) => !isTimeZone(name) || !isTimeZone(name.toUpperCase()))).toEqual([]);
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
