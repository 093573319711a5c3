// A runner that reaches the instance only through a corporate proxy: HTTPS_PROXY is honoured by
// a CONNECT tunnel (the proxy relays TLS it cannot read: the token never reaches it in clear),
// NO_PROXY exempts a host, and the proxy's own credentials never appear in output. Real HTTP on
// 127.0.0.1: a CONNECT proxy and a TLS front (self-signed for localhost) before the sandbox,
// the built CLI spawned with the environment a runner would have.
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, tempDir } from '../cli/helpers.js';

const TOKEN = 'tok-proxied-9c2e51a7f0';
let sandbox: Sandbox;
let front: https.Server;
let frontPort: number;
let proxy: http.Server;
let proxyPort: number;
let caFile: string;
/** What the proxy saw: CONNECT targets, their Proxy-Authorization, and every byte it relayed upstream. */
let seen: { connects: string[]; auth: (string | undefined)[]; relayed: Buffer[] };
/** Requests the TLS front received (after the tunnel), with the token header they carried. */
let received: { url: string; token: string | undefined }[];
let requireAuth: string | null = null;

beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
  });
  caFile = path.join(tempDir('steward-proxy-'), 'ca.pem');
  writeFileSync(caFile, pems.cert);
  // The instance behind TLS: every request passed on to the sandbox as it came.
  front = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    received.push({ url: req.url ?? '', token: req.headers['x-service-developer-token'] as string | undefined });
    const upstream = http.request(`${sandbox.baseUrl}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(sandbox.baseUrl).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  front.listen(0, '127.0.0.1');
  await once(front, 'listening');
  frontPort = (front.address() as AddressInfo).port;
  // A CONNECT proxy (what corporate proxies do for https): a TCP relay once the tunnel is up.
  proxy = http.createServer((_, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client: net.Socket, head: Buffer) => {
    seen.connects.push(req.url ?? '');
    seen.auth.push(req.headers['proxy-authorization']);
    if (requireAuth && req.headers['proxy-authorization'] !== requireAuth) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
      return;
    }
    const [, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      client.on('data', (d: Buffer) => seen.relayed.push(d));
      client.pipe(upstream);
      upstream.pipe(client);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyPort = (proxy.address() as AddressInfo).port;
});
afterAll(async () => {
  front.closeAllConnections();
  proxy.closeAllConnections?.();
  front.close();
  proxy.close();
  await sandbox.close();
});
beforeEach(() => {
  seen = { connects: [], auth: [], relayed: [] };
  received = [];
  requireAuth = null;
});

const check = (env: Record<string, string>) =>
  runCli(['check', '--config', 'demo/steward.yaml', '--only', 'calculated-fields-valid', '--only', 'datasets-have-an-owner', '--format', 'json'], {
    spawn: true,
    env: { STEWARD_BASE_URL: `https://localhost:${frontPort}`, STEWARD_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: caFile, ...env },
  });

describe('HTTPS_PROXY', () => {
  it('carries every request through a CONNECT tunnel; the proxy never sees the token', async () => {
    const r = await check({ HTTPS_PROXY: `http://127.0.0.1:${proxyPort}` });
    expect(r.stderr).not.toContain('could not evaluate');
    expect(JSON.parse(r.stdout).summary.errors).toBe(0);
    expect(seen.connects.length).toBeGreaterThan(0);
    expect(new Set(seen.connects)).toEqual(new Set([`localhost:${frontPort}`]));
    // Every request reached the instance with the token, through the tunnel.
    expect(received.length).toBeGreaterThan(1);
    expect(received.every((q) => q.token === TOKEN)).toBe(true);
    // What the proxy relayed is TLS: the token is not in it in any readable form.
    const relayed = Buffer.concat(seen.relayed);
    expect(relayed.length).toBeGreaterThan(0);
    expect(relayed.includes(TOKEN)).toBe(false);
    expect(relayed.includes('X-SERVICE-Developer-Token')).toBe(false);
  });

  it('NO_PROXY exempts the instance: no tunnel, the same answers', async () => {
    const r = await check({ HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`, NO_PROXY: 'localhost' });
    expect(JSON.parse(r.stdout).summary.errors).toBe(0);
    expect(seen.connects).toEqual([]);
    expect(received.length).toBeGreaterThan(1);
  });

  it('proxy credentials go to the proxy only, and never into output', async () => {
    requireAuth = `Basic ${Buffer.from('corp:pr0xy-s3cret-pw').toString('base64')}`;
    const ok = await check({ HTTPS_PROXY: `http://corp:pr0xy-s3cret-pw@127.0.0.1:${proxyPort}` });
    expect(JSON.parse(ok.stdout).summary.errors).toBe(0);
    expect(seen.auth.every((a) => a === requireAuth)).toBe(true);
    // Refused by the proxy: an error naming the failure, with no credential in any form.
    requireAuth = 'Basic something-else';
    const refused = await check({ HTTPS_PROXY: `http://corp:pr0xy-s3cret-pw@127.0.0.1:${proxyPort}` });
    expect(refused.code).toBe(3);
    for (const text of [refused.stdout, refused.stderr]) {
      expect(text).not.toContain('pr0xy-s3cret-pw');
      expect(text).not.toContain(Buffer.from('corp:pr0xy-s3cret-pw').toString('base64'));
    }
  });

  it('a proxy URL that is not http(s) is exit 2 before any request', async () => {
    const r = await check({ HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('HTTPS_PROXY: must be an http:// or https:// proxy URL (steward tunnels https through it with CONNECT)');
    expect(received).toEqual([]);
  });
});
