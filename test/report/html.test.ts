// The HTML formatter as text (the browser test reads it through the DOM): hostile text is
// escaped, nothing is fetched, waivers ending soon are marked, controls, overrides, errors and
// fixed findings are shown.
import { describe, expect, it } from 'vitest';
import type { WaiverRef } from '../../src/core/model.js';
import { formatReport } from '../../src/report/index.js';
import { makeFinding, makeReport } from '../fixtures/report.js';

const html = (overrides: Parameters<typeof makeReport>[0] = {}) => formatReport('html', makeReport(overrides), { color: false });

describe('html format', () => {
  it('escapes what the instance and the files say, and loads nothing from anywhere', () => {
    const hostile = makeFinding({ message: '<script>alert(1)</script> & "quoted"', fingerprint: 'fp-hostile' });
    const out = html({ findings: [hostile] });
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;');
    expect(out).not.toContain('<script>alert(1)');
    expect(out.match(/<script>/g)).toHaveLength(1);
    expect(out).not.toMatch(/\bsrc=/);
    // Links only within the page (a policy tile to its findings).
    expect([...out.matchAll(/\bhref="([^"]*)"/g)].map((m) => m[1]).filter((h) => !h.startsWith('#policy-'))).toEqual([]);
    expect(out).not.toContain('url(');
    expect(out).not.toContain('@import');
    expect(out).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
    // No inline script runs but the report's own, by its hash.
    expect(out).toMatch(/script-src 'sha256-[A-Za-z0-9+/]{43}='"/);
    expect(out).not.toMatch(/script-src[^;"]*unsafe-inline/);
  });

  it('marks the waivers ending within the warning window, and lists the others plain', () => {
    const soon: WaiverRef = { policy: 'p', resource: 'r1', reason: 'temporary', owner: 'ops@acme.example', expires: '2026-03-12' };
    const later: WaiverRef = { ...soon, resource: 'r2', expires: '2027-01-01' };
    const out = html({ waivers: { expired: [], stale: [], catchAll: [], active: [soon, later], expiring: [soon] } });
    expect(out).toContain('<tr class="expiring"><td>p</td><td>r1</td><td>ops@acme.example</td><td>2026-03-12 (ends in 10 days)</td>');
    expect(out).toContain('<tr><td>p</td><td>r2</td><td>ops@acme.example</td><td>2027-01-01</td>');
  });

  it('shows each framework control, the overrides, evaluation errors and fixed findings', () => {
    const out = html({
      frameworks: [{ name: 'SOC2', controls: [{ id: 'CC6.1', status: 'fail', policies: ['queue-no-admin-for-users'] }] }],
      overrides: [{ policy: 'soft-one', reason: 'release 4.2 freeze' }],
      fixed: [
        {
          policy: 'data-file-not-public',
          severity: 'critical',
          resource: { kind: 'dataFile', id: '42', name: null },
          fingerprint: 'fp-42',
          message: 'Data file 42 is public',
          firstSeen: '2026-02-01T00:00:00.000Z',
          fixedAt: '2026-03-02T09:15:00.000Z',
        },
      ],
    });
    expect(out).toContain('<caption class="meta">SOC2 controls</caption>');
    expect(out).toContain('<tr><td>CC6.1</td><td>fail</td><td>queue-no-admin-for-users</td></tr>');
    expect(out).toContain('<li><code>soft-one</code>: release 4.2 freeze</li>');
    expect(out).toContain('<h2 id="errors-h">Could not evaluate (the gate fails closed)</h2>');
    expect(out).toContain('<td>dataFile/42</td><td>Data file 42 is public</td><td>2026-02-01T00:00:00.000Z</td><td>2026-03-02T09:15:00.000Z</td>');
  });
});
