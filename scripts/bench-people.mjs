// Memory per page of the identity search: `steward check` of the identity policies over 100,000
// users, a whole process against the sandbox in its own, against a bare node:http client reading
// the same two searches (live and deleted users, 200 a page, 8 in flight) and keeping every user.
// Peak RSS as each process reports it (scripts/bench-process.mjs); 3 runs of each, alternated.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';
import { median } from './bench-median.mjs';
import { processUsage } from './bench-process.mjs';
import { sandboxProcess } from './bench-sandbox.mjs';

/** The search bodies steward sends (src/api/assumptions.ts), for the bare client to send the same. */
async function searchBodies() {
  const { code } = await transform(readFileSync('src/api/assumptions.ts', 'utf8'), { loader: 'ts', format: 'esm' });
  const { USER_SEARCH_BODY, DELETED_USER_SEARCH_BODY } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return [USER_SEARCH_BODY, DELETED_USER_SEARCH_BODY];
}

const PLAIN_SEARCH = `
const http = require('node:http');
const [baseUrl, token, bodies] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const post = (body) => new Promise((resolve, reject) => {
  const text = JSON.stringify(body);
  const req = http.request(baseUrl + '/api/identity/v1/users/search', { method: 'POST', agent, headers: { 'X-SERVICE-Developer-Token': token, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end(text);
});
(async () => {
  // One entry a user, as steward's directory keeps them: a user in both listings is one user.
  const users = new Map();
  const keep = (page) => { for (const u of page.users) users.set(String(u.id), u); };
  for (const criteria of bodies) {
    const first = await post({ ...criteria, limit: 200, offset: 0 });
    keep(first);
    const offsets = [];
    for (let o = 200; o < first.count; o += 200) offsets.push(o);
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => { while (next < offsets.length) keep(await post({ ...criteria, limit: 200, offset: offsets[next++] })); }));
  }
  agent.destroy();
  process.stdout.write(String(users.size));
})();
`;

export async function benchPeopleMemory({ dir, expect, users = 100_000, runs = 3 }) {
  const sandbox = await sandboxProcess({ size: { users, schedules: 0, datasets: 0, cards: 0, groups: 0, accessTokens: 0 } });
  const config = path.join(dir, 'people.yaml');
  writeFileSync(config, JSON.stringify({ policies: ['builtin'], scope: { users: 'all' } }));
  const env = { ...process.env, STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token };
  const bodies = JSON.stringify(await searchBodies());
  const only = ['users-not-dormant', 'invitations-not-stale', 'admins-at-most'].flatMap((id) => ['--only', id]);
  const pairs = [];
  for (let i = 0; i < runs; i++) {
    const steward = processUsage(['dist/cli.js', 'check', '--config', config, ...only, '--concurrency', '8', '--format', 'json', '--quiet'], { env });
    const bare = processUsage(['-e', PLAIN_SEARCH, sandbox.baseUrl, sandbox.token, bodies]);
    const listed = JSON.parse(steward.stdout).coverage.find((c) => c.kind === 'user')?.listed;
    expect(listed === Number(bare.stdout), `people memory: steward listed ${listed} users, the bare client read ${bare.stdout}`);
    pairs.push({ steward, bare, users: Number(bare.stdout) });
  }
  await sandbox.close();
  const of = (pick) => median(pairs.map(pick));
  return { users: pairs[0].users, stewardRss: of((p) => p.steward.rssMb), stewardCpu: of((p) => p.steward.cpuMs), bareRss: of((p) => p.bare.rssMb), bareCpu: of((p) => p.bare.cpuMs) };
}
