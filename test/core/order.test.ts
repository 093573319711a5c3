// The orders shared by every layer. Text compares by code unit, never by the process's locale.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Finding } from '../../src/core/model.js';
import { compareNatural, compareText, orderFindings } from '../../src/core/order.js';

describe('compareText', () => {
  it('orders by code unit: capitals before small letters, - before _ before letters', () => {
    expect(['t', 'z', 'b', 'B', 'a_b', 'a-b', 'ab', 'a'].sort(compareText)).toEqual(['B', 'a', 'a-b', 'a_b', 'ab', 'b', 't', 'z']);
  });

  it('is 0 only for equal text, and antisymmetric', () => {
    expect(compareText('queue', 'queue')).toBe(0);
    expect(compareText('z', 't')).toBe(1);
    expect(compareText('t', 'z')).toBe(-1);
  });
});

describe('compareNatural', () => {
  it('compares digit runs as numbers and everything else by code unit', () => {
    const ids = ['10019', '9001', 'permissions[10]', 'permissions[2]', 'b', 'B', 'a_b', 'a-b', 'ab', 'ds-10', 'ds-9', 'ds-09'];
    expect(ids.sort(compareNatural)).toEqual(['9001', '10019', 'B', 'a-b', 'a_b', 'ab', 'b', 'ds-9', 'ds-09', 'ds-10', 'permissions[2]', 'permissions[10]']);
  });

  it('is 0 only for equal text: numbers that differ in leading zeros still differ', () => {
    expect(compareNatural('ds-07', 'ds-07')).toBe(0);
    expect(Math.sign(compareNatural('ds-07', 'ds-7'))).toBe(-Math.sign(compareNatural('ds-7', 'ds-07')));
    expect(compareNatural('ds-07', 'ds-7')).not.toBe(0);
  });
});

describe('orderFindings', () => {
  afterEach(() => vi.unstubAllGlobals());

  const finding = (severity: Finding['severity'], kind: string, id: string, path?: string) =>
    ({ policy: 'p', severity, message: 'm', resource: { kind, id }, ...(path === undefined ? {} : { path }) }) as Finding;

  it('orders by severity, kind, id and path, naturally, with no ICU collator (Intl is not asked)', () => {
    // A collator costs ~15 ms of a start and orders by its ICU version: the order must need none.
    vi.stubGlobal('Intl', new Proxy(Intl, { get: () => { throw new Error('Intl was asked'); } }));
    const findings = [
      finding('low', 'schedule', '950'),
      finding('high', 'schedule', '9001', 'permissions[10]'),
      finding('high', 'schedule', '9001', 'permissions[2]'),
      finding('high', 'dataset', 'ds-10'),
      finding('high', 'dataset', 'ds-9'),
      finding('critical', 'user', 'u-2'),
      finding('low', 'schedule', '90019'),
    ];
    expect(orderFindings(findings).map((f) => `${f.severity} ${f.resource.kind} ${f.resource.id} ${f.path ?? ''}`)).toEqual([
      'critical user u-2 ',
      'high dataset ds-9 ',
      'high dataset ds-10 ',
      'high schedule 9001 permissions[2]',
      'high schedule 9001 permissions[10]',
      'low schedule 950 ',
      'low schedule 90019 ',
    ]);
  });
});
