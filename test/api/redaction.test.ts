// A server may echo the token in any encoding: as sent, JSON-escaped inside an error body that
// has no `message`, URL-encoded. None of these forms may reach an error, a report or a message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../../src/library/index.js';
import { redact as cliRedact } from '../../src/cli/io.js';
import { redactSecrets, secretForms } from '../../src/api/errors.js';
import { SecretSet } from '../../src/core/redact.js';
import { FORMATS, formatReport } from '../../src/report/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { allTextOf, clientFor, rejection } from './helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';
import { sarifValidator } from '../report/schema-validators.js';

const QUOTED = 'a"b\\c-SECRET'; // JSON-escaped: a\"b\\c-SECRET
const PLUS = 'abc+def/ghi=SECRET'; // URL-encoded: abc%2Bdef%2Fghi%3DSECRET
const TOKENS = [QUOTED, PLUS];

/** The exact strings a leak would show: the literal, JSON-escaped and URL-encoded forms. */
const leaks = (token: string) => [token, JSON.stringify(token).slice(1, -1), encodeURIComponent(token), encodeURI(token)];

describe('redactSecrets', () => {
  it('replaces the literal, JSON-escaped and URL-encoded forms, longest first', () => {
    expect(secretForms([QUOTED])).toEqual(expect.arrayContaining(['a%22b%5Cc-SECRET', 'a\\"b\\\\c-SECRET', 'a"b\\c-SECRET']));
    expect(secretForms([PLUS])).toEqual(expect.arrayContaining(['abc%2Bdef%2Fghi%3DSECRET', 'abc+def/ghi=SECRET']));
    const lengths = secretForms([PLUS]).map((f) => f.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    const text = `1 ${QUOTED} 2 a\\"b\\\\c-SECRET 3 a%22b%5Cc-SECRET 4 ${PLUS} 5 abc%2Bdef%2Fghi%3DSECRET`;
    expect(redactSecrets(text, TOKENS)).toBe('1 *** 2 *** 3 *** 4 *** 5 ***');
  });

  it('replaces \\u-escaped and base64 forms, at every alignment inside a longer encoded value', () => {
    const token = 'tok-8f3a9c2e71d4b605';
    const unicode = [...token].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(redactSecrets(`{"echo":"${unicode}"}`, [token])).toBe('{"echo":"***"}');
    expect(redactSecrets(`{"echo":"${unicode.toUpperCase().replaceAll('\\U', '\\u')}"}`, [token])).toBe('{"echo":"***"}');
    for (const prefix of ['', 'u', 'us', 'user:']) {
      for (const suffix of ['', '!', '!?']) {
        const basic = Buffer.from(`${prefix}${token}${suffix}`).toString('base64');
        const redacted = redactSecrets(`Authorization: Basic ${basic}`, [token]);
        expect(redacted).toContain('***');
        // What is left cannot be decoded back to more than a few characters of the token.
        expect(Buffer.from(redacted.replace('Authorization: Basic ', '').replace('***', ''), 'base64').toString('latin1')).not.toContain(token.slice(0, 8));
        const urlSafe = basic.replaceAll('+', '-').replaceAll('/', '_');
        expect(redactSecrets(urlSafe, [token])).toContain('***');
      }
    }
  });

  it('leaves secrets under four characters and missing secrets alone', () => {
    expect(redactSecrets('start the test', ['t', 'tes', '', null, undefined])).toBe('start the test');
    expect(redactSecrets('a test', ['test'])).toBe('a ***');
  });

  it('is what the CLI and the Action redact with', () => {
    const text = `x a\\"b\\\\c-SECRET y abc%2Bdef%2Fghi%3DSECRET z`;
    expect(cliRedact({ stdout: process.stdout, stderr: process.stderr, env: {}, cwd: '.', secrets: SecretSet.of(...TOKENS) }, text)).toBe('x *** y *** z');
    // The Action redacts every message through its SecretSet (action/main.ts).
    expect(SecretSet.of(...TOKENS).redact(text)).toBe('x *** y *** z');
  });
});

describe.each(TOKENS)('a server echoing the token %s', (token) => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await startSandbox({ token, workflowToken: token });
  });
  afterAll(() => s.close());

  const bodies: [string, string][] = [
    ['JSON without message (JSON-escaped)', JSON.stringify({ error: `bad token ${token}` })],
    ['JSON, URL-encoded', JSON.stringify({ error: `bad token ${encodeURIComponent(token)}` })],
    ['text, URI-encoded', `bad request /x?token=${encodeURI(token)}`],
    ['JSON message (literal)', JSON.stringify({ message: `bad token ${token}` })],
  ];

  it.each(bodies)('%s: in no error text', async (_, body) => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 500, body });
    const { client } = clientFor(s, { maxAttempts: 1 });
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error).toMatchObject({ kind: 'http', status: 500 });
    expect(error.message).toContain('***');
    for (const text of [String(error), error.message, JSON.stringify(error), allTextOf(error)]) {
      for (const leak of leaks(token)) expect(text).not.toContain(leak);
    }
  });

  it('a token cut by the excerpt leaves no prefix behind', async () => {
    // The excerpt keeps 200 characters: unredacted, the cut would keep the token's first 9.
    s.scriptFault('getCalculatedFieldStatistics', { status: 500, body: `${'x'.repeat(190)} ${token}` });
    const { client } = clientFor(s, { maxAttempts: 1 });
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error.apiMessage).toBe(`${'x'.repeat(190)} ***`);
    expect(allTextOf(error)).not.toContain(token.slice(0, 5));
  });

  it('a body that is not JSON on a read (API drift) is quoted redacted', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 200, body: `<html>token ${token}</html>` });
    const { client } = clientFor(s, { maxAttempts: 1 });
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error).toMatchObject({ kind: 'drift', field: '(body)' });
    expect(error.message).toContain('expected JSON, got "<html>token ***</html>"');
    for (const leak of leaks(token)) expect(allTextOf(error)).not.toContain(leak);
  });

  it('reaches no report format through check()', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 500, body: JSON.stringify({ error: `bad token ${token}` }) }, 4);
    const report = await check({
      config: 'demo/steward.yaml',
      cwd: new URL('../..', import.meta.url).pathname,
      env: {},
      baseUrl: s.baseUrl,
      workflowUrl: s.workflowUrl,
      token,
      only: ['calculated-fields-valid'],
      client: { retryBaseDelayMs: 1, retryMaxDelayMs: 5 },
    });
    expect(report.summary.gate).toBe('error');
    expect(report.policies[0].error).toContain('{"error":"bad token ***"}');
    for (const format of FORMATS) {
      const text = formatReport(format, report, { color: false, cwd: '.' });
      for (const leak of leaks(token)) expect(text, format).not.toContain(leak);
    }
    // The redacted echo stays valid where a schema says what valid is.
    expect(await junitXsdProblems(formatReport('junit', report, { color: false }))).toEqual([]);
    expect(sarifValidator()(JSON.parse(formatReport('sarif', report, { color: false, cwd: '.' })))).toEqual([]);
  });
});
