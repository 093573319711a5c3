// Report files of every format in one run, the token never written anywhere, and the same
// verdict through 429 (Retry-After) and 503 answers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { BUILTIN_POLICIES, findingKeys, PLANTED, readTree, runCli, sandboxEnv, tempDir } from './helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';
import { sarifValidator } from '../report/schema-validators.js';

const TOKEN = 'tok_SECRET_7f3a9c1e5b';
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

const DEMO = ['--config', 'demo/steward.yaml'];

describe('steward check outputs', () => {
  it('writes every format in one run, each parseable, with the same findings; never the token, even with --verbose', async () => {
    const out = tempDir();
    const files = {
      text: path.join(out, 'r.txt'),
      json: path.join(out, 'r.json'),
      sarif: path.join(out, 'nested/r.sarif'),
      junit: path.join(out, 'r.xml'),
      markdown: path.join(out, 'r.md'),
      github: path.join(out, 'r.github'),
      html: path.join(out, 'r.html'),
      csv: path.join(out, 'r.csv'),
    };
    const outputs = Object.entries(files).flatMap(([format, file]) => ['--output', `${format}=${file}`]);
    const r = await runCli(['check', ...DEMO, '--format', 'sarif', '--verbose', ...outputs], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);

    const json = JSON.parse(readFileSync(files.json, 'utf8'));
    expect(findingKeys(json)).toEqual(PLANTED);
    // stdout is the SARIF document alone; the request log went to stderr.
    const sarif = JSON.parse(r.stdout);
    expect(sarifValidator()(sarif)).toEqual([]);
    expect(sarif.version).toBe('2.1.0');
    expect(JSON.parse(readFileSync(files.sarif, 'utf8')).runs[0].results).toHaveLength(sarif.runs[0].results.length);
    expect(sarif.runs[0].results.filter((x: { suppressions?: unknown[] }) => !x.suppressions?.length)).toHaveLength(PLANTED.length);
    const junit = readFileSync(files.junit, 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(await junitXsdProblems(junit)).toEqual([]);
    // One testsuite per policy of the pack (16); one failure per unwaived violation (20).
    expect(junit.match(/<testsuite /g)).toHaveLength(BUILTIN_POLICIES);
    expect(junit.match(/<failure /g)).toHaveLength(PLANTED.length);
    expect(junit).toMatch(new RegExp(`<testsuites [^>]*failures="${PLANTED.length}" errors="0" time="`));
    // The violations and 1 waived finding: a row each in the findings table.
    const rows = readFileSync(files.markdown, 'utf8')
      .split('\n')
      .filter((l) => /^\| [a-z0-9-]+ \| (critical|high|medium|low|info) \| /.test(l));
    expect(rows).toHaveLength(PLANTED.length + 1);
    // At most 10 per level: errors and warnings capped at 10, notices and the "N more" notices 10 together.
    const annotations = readFileSync(files.github, 'utf8').split('\n').filter((l) => l.startsWith('::'));
    const count = (level: string) => annotations.filter((l) => l.startsWith(`::${level} `)).length;
    expect([count('error'), count('warning'), count('notice')]).toEqual([10, 10, 7]);
    expect(annotations.filter((l) => / more (errors|warnings|notices) not shown/.test(l))).toHaveLength(3);
    expect(readFileSync(files.text, 'utf8')).toContain('data-files-not-public');
    expect(readFileSync(files.text, 'utf8')).not.toContain('\x1b['); // no colour in files
    // CSV: RFC 4180 (CRLF), a header, then a row per finding (errors too) with the JSON report's fingerprints.
    const csv = readFileSync(files.csv, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('instance,policy,severity,status,kind,resource_id,resource_name,path,item,message,owner,owner_email,owner_state,owner_unknown,team,location,lifecycle,first_seen,baseline,waiver_owner,waiver_expires,waiver_reason,fingerprint');
    const records = parse(csv, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
    expect(records.map((x) => x.fingerprint).sort()).toEqual(json.findings.map((f: { fingerprint: string }) => f.fingerprint).sort());
    expect(records.filter((x) => x.status === 'violation')).toHaveLength(PLANTED.length);
    expect(readFileSync(files.html, 'utf8').match(/<tr class="finding"/g)).toHaveLength(json.findings.filter((f: { status: string }) => f.status !== 'error').length);

    const requestLines = r.stderr.split('\n').filter((l) => /^(GET|POST) http:\/\/127\.0\.0\.1:\d+\/.* → 200 \(\d+ ms\)$/.test(l));
    expect(requestLines).toHaveLength(sandbox.totalRequests());
    for (const [file, text] of Object.entries(readTree(out))) expect(text, file).not.toContain(TOKEN);
    expect(r.stdout).not.toContain(TOKEN);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('--output PATH takes the format from the extension (.sarif, .sarif.json, .xml, .html, .md, .json, .txt); a prefix that is no format belongs to the path; no known extension is exit 2 before any request', async () => {
    const out = tempDir();
    const names = ['a.sarif', 'b.sarif.json', 'c.xml', 'd.html', 'e.md', 'f=g.json', 'h.txt'];
    const r = await runCli(['check', ...DEMO, '--only', 'queue-no-admin-for-users', '--format', 'json', ...names.flatMap((n) => ['--output', path.join(out, n)])], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    const text = (n: string) => readFileSync(path.join(out, n), 'utf8');
    expect(JSON.parse(text('a.sarif')).version).toBe('2.1.0');
    expect(JSON.parse(text('b.sarif.json')).version).toBe('2.1.0');
    expect(text('c.xml')).toMatch(/^<\?xml [^>]*>\n<testsuites /);
    expect(await junitXsdProblems(text('c.xml'))).toEqual([]);
    expect(text('d.html')).toMatch(/^<!doctype html>/i);
    expect(text('e.md')).toMatch(/^### .* steward: fail: 2 violations/);
    expect(JSON.parse(text('f=g.json')).findings).toEqual(JSON.parse(r.stdout).findings);
    expect(text('h.txt')).toContain('queue-no-admin-for-users');
    sandbox.resetCounts();
    const bad = await runCli(['check', ...DEMO, '--output', path.join(out, 'report.pdf')], { env: sandboxEnv(sandbox) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected FORMAT=PATH, e.g. sarif=steward.sarif, or a file named .sarif.json, .sarif,');
    const unknown = await runCli(['check', ...DEMO, '--output', 'pdf=report.pdf'], { env: sandboxEnv(sandbox) });
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('unknown format "pdf"')]);
    // A mistyped format before a known extension is not a file named `sarf=out.sarif` (a
    // workflow would upload an older out.sarif): exit 2, saying how to name such a file.
    const typo = await runCli(['check', ...DEMO, '--output', 'sarf=out.sarif'], { env: sandboxEnv(sandbox), cwd: out });
    expect([typo.code, typo.stderr.split('\n')[0]]).toEqual([2, `error: option '-o, --output <format=path>' argument 'sarf=out.sarif' is invalid. unknown format "sarf" (formats: text, json, sarif, junit, markdown, github, html, csv); a file whose name holds "=" is given with its folder: ./sarf=out.sarif.`]);
    expect(existsSync(path.join(out, 'sarf=out.sarif'))).toBe(false);
    // Two outputs naming one file: the first would be lost.
    const same = await runCli(['check', ...DEMO, '--output', `json=${path.join(out, 'r.out')}`, '--output', `sarif=${path.join(out, 'r.out')}`], { env: sandboxEnv(sandbox) });
    expect([same.code, same.stdout, same.stderr]).toEqual([2, '', `--output sarif=${path.join(out, 'r.out')}: ${path.join(out, 'r.out')} is also --output json=${path.join(out, 'r.out')}: one would overwrite the other\nsteward: bad input; nothing was sent to the API\n`]);
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('reaches the same verdict when some requests get 429 with Retry-After and 503, counting the retries', async () => {
    sandbox.scriptFault('listReportSchedules', { status: 429, retryAfter: 1 }, 1);
    sandbox.scriptFault('getDatasetPermissions', { status: 503 }, 3);
    sandbox.scriptFault('getCertificationStatus', { status: 429, retryAfter: 0 }, 2);
    sandbox.scriptFault('listWorkflows', { status: 503 }, 1);
    const r = await runCli(['check', ...DEMO, '--format', 'json'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(findingKeys(report)).toEqual(PLANTED);
    // The three 429s each halved the requests in flight: 8 → 4 → 2 → 1.
    expect(report.http).toEqual({ requests: sandbox.totalRequests(), retries: 7, failed: 0, throttled: 3, lowestConcurrency: 1, ratePerSecond: expect.any(Number) });
  });
});
