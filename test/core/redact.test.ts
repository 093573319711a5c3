// The forms a secret is redacted in, exactly: as is, JSON-escaped, \u-escaped (both cases),
// URL-encoded, and base64 at each byte alignment, standard and URL-safe. A form dropped is a
// secret echoed in that form and printed; a form too short would mangle ordinary text.
import { describe, expect, it } from 'vitest';
import { MIN_REDACTED_SECRET_LENGTH, SecretSet, secretForms } from '../../src/core/redact.js';

// Its base64 holds both `+` and `/`: the URL-safe forms differ from the standard ones.
const SECRET = 'tok>>>???>>>x';

describe('secretForms', () => {
  it('every form of a secret, longest first', () => {
    // The characters of its base64 that depend on its bytes alone, at offsets 0, 1 and 2 of a longer value.
    const standard = ['dG9rPj4+Pz8/Pj4+e', 'Rvaz4+Pj8/Pz4+Pn', '0b2s+Pj4/Pz8+Pj54'];
    const forms = secretForms([SECRET]);
    expect(new Set(forms)).toEqual(
      new Set([
        SECRET,
        [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
        [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
        encodeURIComponent(SECRET),
        encodeURI(SECRET),
        ...standard,
        ...standard.map((f) => f.replaceAll('+', '-').replaceAll('/', '_')),
      ]),
    );
    expect(standard.some((f) => f.includes('+')) && standard.some((f) => f.includes('/'))).toBe(true);
    expect(forms).toEqual([...forms].sort((a, b) => b.length - a.length));
  });

  it('a secret echoed URL-safe base64-encoded inside a longer value is redacted', () => {
    const echoed = Buffer.from(`Basic user:${SECRET}`).toString('base64url');
    expect(echoed).toMatch(/[-_]/);
    expect(SecretSet.of(SECRET).redact(`header: ${echoed}`)).toMatch(/^header: \S*\*\*\*\S*$/);
  });

  it('no form of a secret shorter than the minimum, or of what is not text; base64 forms under 8 characters are left out', () => {
    expect(secretForms(['abc', null, undefined, 12 as unknown as string])).toEqual([]);
    expect(MIN_REDACTED_SECRET_LENGTH).toBe(4);
    // 4 bytes: at most 5 characters depend on them alone, under the 8 a base64 form needs.
    const forms = secretForms(['abcd']);
    expect(forms.filter((f) => /^[A-Za-z0-9+/_-]+$/.test(f) && f !== 'abcd')).toEqual([]);
    // 6 bytes: 8 characters at the first alignment only.
    const six = secretForms(['abcdef']).filter((f) => f !== 'abcdef' && /^[A-Za-z0-9+/_-]+$/.test(f));
    expect(six).toEqual([Buffer.from('abcdef').toString('base64')]);
  });
});

describe('SecretSet', () => {
  it('an empty set holds nothing and hands a JSON value back as it is', () => {
    const empty = new SecretSet();
    const value = { text: 'Stryker was here' };
    expect(empty.values).toEqual([]);
    expect(empty.redact('Stryker was here')).toBe('Stryker was here');
    expect(empty.redactJson(value)).toBe(value);
  });

  it('a set with a secret redacts it in JSON keys and values, and copies the value', () => {
    const set = SecretSet.of(SECRET);
    const value = { [SECRET]: [`a ${SECRET} b`], n: 1 };
    const redacted = set.redactJson(value);
    expect(redacted).toEqual({ '***': ['a *** b'], n: 1 });
    expect(redacted).not.toBe(value);
    expect(set.add(SECRET, 'ab').values).toEqual([SECRET]);
  });

  it('hands back a long value holding no form of a secret as it is, and copies one holding a form far into it', () => {
    const set = SecretSet.of(SECRET);
    const ids = Array.from({ length: 20_000 }, (_, i) => `schedule-${i}`);
    const clean = { policies: [{ id: 'p', resourceIds: ids }], findings: [{ message: 'no secret' }] };
    expect(set.redactJson(clean)).toBe(clean);
    // Past the first pieces, and base64-encoded (a form the raw text scan would miss).
    const basic = `Basic ${Buffer.from(`u:${SECRET}`).toString('base64')}`;
    const leaked = { policies: [{ id: 'p', resourceIds: [...ids, basic] }] };
    const redacted = set.redactJson(leaked);
    expect(redacted).not.toBe(leaked);
    expect(redacted.policies[0].resourceIds.slice(0, 20_000)).toEqual(ids);
    expect(set.redact(basic)).not.toBe(basic);
    expect(redacted.policies[0].resourceIds[20_000]).toBe(set.redact(basic));
  });

  it('inAny: whether one of many texts holds a form of a secret, the first piece or one far past it', () => {
    const set = SecretSet.of(SECRET);
    const texts = Array.from({ length: 20_000 }, (_, i) => `schedule-${i}`);
    expect(set.inAny(texts)).toBe(false);
    expect(new SecretSet().inAny([SECRET])).toBe(false);
    expect(set.inAny([])).toBe(false);
    expect(set.inAny([`a ${SECRET}`, ...texts])).toBe(true);
    expect(set.inAny([...texts, `Basic ${Buffer.from(`u:${SECRET}`).toString('base64')}`])).toBe(true);
    expect(set.inAny([...texts.slice(0, 9_000), encodeURIComponent(SECRET), ...texts.slice(9_000)])).toBe(true);
  });
});
