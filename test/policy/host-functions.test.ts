// The functions steward adds to CEL, called directly: isTimeZone's answers, and which of them
// needed an Intl.DateTimeFormat (the first costs ~9 ms of a run).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTimeZone, label } from '../../src/policy/host-functions.js';

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
    expect(['Asia/Kolkata', 'US/Pacific', 'europe/paris', 'Venus/Maxwell_Montes', 'no zone', 'Europe/Berlin '].map(isTimeZone)).toEqual([true, true, true, false, false, false]);
    expect(built).toHaveBeenCalledTimes(6);
    expect(['Asia/Kolkata', 'Venus/Maxwell_Montes'].map(isTimeZone)).toEqual([true, false]);
    expect(built).toHaveBeenCalledTimes(6);
  });

  it('takes no UTC offset for a zone, on every Node (Node 24\'s DateTimeFormat accepts one, Node 20\'s does not)', () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    expect(['+05:00', '-08:00', '-0800', '+05', '\u221205:00', '+00:00'].map(isTimeZone)).toEqual([false, false, false, false, false, false]);
    expect(built).not.toHaveBeenCalled();
    // The tz database's own offset names stay zones.
    expect(['Etc/GMT+5', 'Etc/GMT-14'].map(isTimeZone)).toEqual([true, true]);
  });

  it("takes none of the names ICU adds to the tz database's (Intl accepts each, in any case)", () => {
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    const icuOnly = ['PST', 'IST', 'CST', 'pst', 'Bet', 'SystemV/EST5', 'systemv/pst8pdt', 'US/Pacific-New', 'Canada/East-Saskatchewan'];
    expect(icuOnly.map(isTimeZone)).toEqual(icuOnly.map(() => false));
    expect(built).not.toHaveBeenCalled();
    // The tz database's own short names and links stay zones.
    expect(['EST', 'MST', 'HST', 'CET', 'EET', 'MET', 'WET', 'CST6CDT', 'US/Pacific', 'Canada/Saskatchewan'].map(isTimeZone)).toEqual(Array(10).fill(true));
  });
});

describe('label', () => {
  it('names an id when there is a name, and shows the id alone otherwise', () => {
    expect([label('Ana Ruiz', 7), label('', 7), label(null, 'g-1'), label('Ops', 12n), label(undefined, null)]).toEqual(['Ana Ruiz (7)', '7', 'g-1', 'Ops (12)', 'null']);
  });
});
