// A sandbox in its own process for the benchmarks: the bench process's CPU and memory are then
// steward's alone, as they are against a remote instance. Lines on stdin ask for the request
// counts ("counts") or end it ("close"). Also the bare client the benches compare against.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';

const CHILD = `
import { createInterface } from 'node:readline';
import { startSandbox } from './dist/sandbox.js';
const s = await startSandbox(JSON.parse(process.argv[1]));
const ids = s.state.datasetAccess ? [...s.state.datasetAccess.keys()] : [];
process.stdout.write(JSON.stringify({ baseUrl: s.baseUrl, workflowUrl: s.workflowUrl, token: s.token, workflowToken: s.workflowToken, ids, schedules: s.state.schedules.length }) + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'counts') process.stdout.write(JSON.stringify(s.counts) + '\\n');
  if (line === 'close') break;
}
await s.close();
process.exit(0);
`;

export async function sandboxProcess(options) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value);
  const info = await next();
  return {
    ...info,
    async counts() {
      child.stdin.write('counts\n');
      return next();
    },
    async close() {
      child.stdin.write('close\n');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * The limit a client is measured against: node:http over 8 keep-alive sockets, the body read
 * and parsed once, nothing else. `getJson(url)` sends the developer token.
 */
export function bareClient(token) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const headers = { 'X-SERVICE-Developer-Token': token };
  const getJson = (url) =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { headers, agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  return { getJson, close: () => agent.destroy() };
}
