// The Action reads the built-in pack as the build parsed it (dist-action/builtin-policies.json,
// committed beside the bundle): a runner gets no dist/, and parsing the 46 policies again cost
// every run ~100 ms of CPU. A file whose text differs from what the build parsed is parsed.
// Shown by a copy of the action whose committed pack names one policy otherwise than its YAML.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { ACTION_PACK_FILE } from '../../src/library/builtin-pack.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { actionCopy, demoWorkspace, removeWorkspace, runAction } from './run-action.js';

const POLICY = 'cards-owner-active';
const FROM_YAML = 'Owned by active users or groups (card)';
const FROM_PACK = 'Owned by active users or groups (card), as the build parsed it';

let sandbox: Sandbox;
let workspace: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  workspace = demoWorkspace();
});

afterAll(async () => {
  removeWorkspace(workspace);
  await sandbox.close();
});

/** The title `POLICY` has in the JSON report of the action in `checkout`. */
async function titleIn(checkout: string): Promise<string | undefined> {
  const run = await runAction(
    workspace,
    { config: 'steward.yaml', 'base-url': sandbox.baseUrl, 'workflow-url': sandbox.workflowUrl, token: sandbox.token, 'workflow-token': sandbox.workflowToken, 'fail-on': 'none', 'json-file': 'out/pack.json' },
    {},
    checkout,
  );
  expect([run.code, run.stderr]).toEqual([0, '']);
  const report = JSON.parse(readFileSync(join(workspace, 'out/pack.json'), 'utf8')) as Report;
  return report.policies.find((p) => p.id === POLICY)?.title;
}

describe('the built-in pack in the Action', () => {
  test('is read from the committed dist-action/builtin-policies.json, and a changed file is parsed instead', async () => {
    const checkout = actionCopy();
    const packFile = join(checkout, ACTION_PACK_FILE);
    const pack = readFileSync(packFile, 'utf8');
    // The pack keeps each file's policies as JSON text inside its JSON (beside the file's text).
    const titled = (title: string) => JSON.stringify(JSON.stringify({ title }).slice(1, -1)).slice(1, -1);
    expect(pack.split(titled(FROM_YAML)).length - 1).toBe(1);
    writeFileSync(packFile, pack.replace(titled(FROM_YAML), titled(FROM_PACK)));
    expect(await titleIn(checkout)).toBe(FROM_PACK);
    // The same action with cards.yaml changed (a comment): its text is no longer the pack's.
    appendFileSync(join(checkout, 'policies', 'cards.yaml'), '\n# changed after the build\n');
    expect(await titleIn(checkout)).toBe(FROM_YAML);
  });
});
