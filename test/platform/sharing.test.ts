// The sharing and row-level security reads on the platform's real answers (../shared/platform-
// fixtures, each with its public source), served verbatim with the real token header: pages,
// accounts, card access, file-set access, workflow permissions and PDP policies evaluated with 0
// errors and exactly the findings the captured answers hold, one request per read; and the card
// access list's assumed form held to (anything else is drift, exit 3). doctor's reads of one
// resource take the same answers.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OperationId } from '../../src/api/operations.js';
import type { Report } from '../../src/core/model.js';
import { check, doctor } from '../../src/index.js';
import { PLANTED_FILESET_ID, startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { findingKeys, tempDir } from '../cli/helpers.js';
import { captured, REAL_TOKEN_HEADER } from '../fixtures/captured.js';


const PAGES = captured<{ pageAdminSummaries: { pageId: number; ownerId: number }[] }>('pages-adminsummary');
const PAGE_ACCESS = captured<{ resource: { id: string; type: string } }>('page-accesslist');
const CARDS = captured<{ cardAdminSummaries: { id: number; owners: { id: string }[] }[] }>('cards-adminsummary');
/** Not shown publicly: the page's form with `resource.type: "badge"` (CARD_ACCESS_LIST_FORM). */
const CARD_ACCESS = { ...PAGE_ACCESS, resource: { ...PAGE_ACCESS.resource, type: 'badge' } };
const ACCOUNTS = captured<{ id: number; userId: number }[]>('accounts-list');
const ACCOUNT_SHARES = captured<unknown>('account-accesslist');
const FILESET_ACCESS = captured<unknown>('fileset-access');
const WORKFLOW_PERMISSIONS = captured<unknown>('workflow-model-permissions');
const PDP = captured<{ userIds?: number[] }[]>('pdp-filter-groups');
const CARD_IDS = CARDS.cardAdminSummaries.map((c) => String(c.id));
const DELETED_GROUP = captured<{ id: number; name: string; active: boolean }>('group-get');

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ tokenHeader: REAL_TOKEN_HEADER });
  // The captured cards exist on the instance; no schedule sends another (only the captured ones are in the summary served).
  for (const id of CARD_IDS) sandbox.state.cards.add(id);
  sandbox.state.schedules = [];
  sandbox.state.misconfigured = [];
});
afterEach(() => sandbox.close());

/** A body served only to the read of one item (its raw path), whatever order the reads come in. */
class ForPath {
  constructor(
    readonly path: string,
    readonly body: unknown,
  ) {}
}

function serve(answers: Partial<Record<OperationId, unknown[]>>): void {
  for (const [op, bodies] of Object.entries(answers)) {
    for (const b of bodies!) {
      const [path, body] = b instanceof ForPath ? [b.path, b.body] : [undefined, b];
      sandbox.scriptFault(op as OperationId, { status: 200, body: JSON.stringify(body), ...(path ? { path } : {}) });
    }
  }
}

/** The captured access list as the platform answers it for `id`: about that item. */
const accessListFor = (kind: 'page' | 'badge', id: string | number, captured: typeof PAGE_ACCESS = kind === 'page' ? PAGE_ACCESS : CARD_ACCESS) =>
  new ForPath(`/api/content/v1/share/accesslist/${kind}/${id}`, { ...captured, resource: { ...captured.resource, id: String(id) } });

function serveCaptured(over: Partial<Record<OperationId, unknown[]>> = {}): void {
  serve({
    listPages: [PAGES],
    getPageAccessList: PAGES.pageAdminSummaries.map((p) => accessListFor('page', p.pageId)),
    listCardSummaries: [CARDS],
    getCardAccessList: CARD_IDS.map((id) => accessListFor('badge', id)),
    listAccounts: [ACCOUNTS],
    getAccountShares: ACCOUNTS.map(() => ACCOUNT_SHARES),
    getFilesetAccess: [FILESET_ACCESS],
    getWorkflowPermissions: [WORKFLOW_PERMISSIONS],
    getPdpPolicies: [PDP],
    ...over,
  });
}

const ONLY = [
  'pages-share-through-groups',
  'cards-share-through-groups',
  'pages-owner-active',
  'datasets-pdp-where-wide',
  'datasets-pdp-open-policy-narrow',
  'datasets-pdp-no-departed-users',
  'accounts-share-edit-through-groups',
  'accounts-owner-active',
  'fileset-files-edit-through-groups',
  'workflows-edit-through-groups',
  'cards-with-an-owner',
];

/** The config of these tests (steward.yaml in a folder of its own), its path. */
function writeConfig(): string {
  const dir = tempDir('steward-sharing-');
  // The card summary's owners have no built-in policy: one reads them here.
  writeFileSync(
    path.join(dir, 'owners.yaml'),
    `policies:
  - id: cards-with-an-owner
    title: Cards have an owner in the admin summary
    description: Reads the owners part.
    severity: low
    resource: card
    assert: size(resource.owners) > 0
`,
  );
  writeFileSync(
    path.join(dir, 'steward.yaml'),
    `policies: [builtin, owners.yaml]
instance: { tokenHeader: ${REAL_TOKEN_HEADER} }
scope:
  pages: all
  accounts: all
  cards: [${CARD_IDS.join(', ')}]
  datasets: [ds-finance-certified]
  filesets: { ${PLANTED_FILESET_ID}: [/raw/legacy.csv] }
  workflows: [wf-nightly-refresh]
`,
  );
  return path.join(dir, 'steward.yaml');
}

/** The options `check` and `doctor` run with here. */
const options = () => {
  const config = writeConfig();
  return { config, cwd: path.dirname(config), env: {}, baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, only: ONLY };
};

const run = (): Promise<Report> => check(options());

const errorsOf = (report: Report) => [
  ...report.policies.filter((p) => p.status === 'error').map((p) => `${p.id}: ${p.error}`),
  ...report.findings.filter((f) => f.status === 'error').map((f) => `${f.policy} ${f.resource.kind}/${f.resource.id}: ${f.message}`),
];

describe('the sharing policies on the platform’s captured answers', () => {
  it('0 errors, exactly the findings the answers hold, one request per read', async () => {
    serveCaptured();
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    const evaluated = Object.fromEntries(report.policies.map((p) => [p.id, p.evaluated]));
    expect(evaluated).toMatchObject({
      'pages-share-through-groups': PAGES.pageAdminSummaries.length,
      'cards-share-through-groups': CARD_IDS.length,
      'accounts-owner-active': ACCOUNTS.length,
      'datasets-pdp-no-departed-users': 1,
      'cards-with-an-owner': CARD_IDS.length,
    });
    expect(findingKeys(report)).toEqual(
      [
        // The captured owners are in no user listing served here: unknown, never a live owner.
        ...PAGES.pageAdminSummaries.map((p) => `pages-owner-active page/${p.pageId}`),
        ...ACCOUNTS.map((a) => `accounts-owner-active account/${a.id}`),
        // The captured share list (another instance's) gives OWNER to user 1893952720, who is not
        // the captured accounts' owner (userId 1001001): a second user holding OWNER.
        ...ACCOUNTS.map((a) => `accounts-share-edit-through-groups account/${a.id} shares[1]`),
        // The captured file-set access grants EDIT to user 1234, and OWNER to user 2345, who is not
        // the set's owner (the planted set's, 31, from the file-set search).
        `fileset-files-edit-through-groups filesetFile/${PLANTED_FILESET_ID}:/raw/legacy.csv filesetAccess[0]`,
        `fileset-files-edit-through-groups filesetFile/${PLANTED_FILESET_ID}:/raw/legacy.csv filesetAccess[1]`,
        // The captured workflow permissions hold a placeholder permission for a user who is not the owner.
        'workflows-edit-through-groups workflow/wf-nightly-refresh permissions[0]',
        // The captured PDP policy names user 1001017, in no user listing.
        'datasets-pdp-no-departed-users dataset/ds-finance-certified',
      ].sort(),
    );
    const errorsOrMissing = report.findings.filter((f) => f.policy === 'cards-with-an-owner');
    expect(errorsOrMissing).toEqual([]);
    expect(sandbox.counts).toMatchObject({
      listPages: 1,
      getPageAccessList: PAGES.pageAdminSummaries.length,
      listCardSummaries: 1,
      listAccounts: 1,
      getAccountShares: ACCOUNTS.length,
      getFilesetAccess: 1,
      getWorkflowPermissions: 1,
      getPdpPolicies: 1,
    });
  });

  it("doctor's reads of one resource take the captured answers, served with the real header: each ok, one request each", async () => {
    serveCaptured();
    const report = await doctor(options());
    expect(report.checks.filter((c) => c.status !== 'ok' && c.status !== 'warn')).toEqual([]);
    // The first resource of each kind: the scope's first dataset, card, file and workflow, each answered as captured.
    expect(report.checks.filter((c) => c.id.split('.').length === 3).map((c) => [c.id, c.detail])).toEqual([
      ['read.dataset.getDatasetPermissions', 'getDatasetPermissions for dataset ds-finance-certified (its access): answered'],
      ['read.dataset.getCertificationStatus', 'getCertificationStatus for dataset ds-finance-certified (its certification): answered'],
      ['read.dataset.getPdpPolicies', 'getPdpPolicies for dataset ds-finance-certified (its pdp): answered'],
      ['read.card.getCardAccessList', `getCardAccessList for card ${CARD_IDS[0]} (its access): answered`],
      ['read.filesetFile.getFilesetAccess', `getFilesetAccess for file ${PLANTED_FILESET_ID}:/raw/legacy.csv (its filesetAccess): answered`],
      ['read.workflow.getWorkflowPermissions', 'getWorkflowPermissions for workflow wf-nightly-refresh (its permissions): answered'],
    ]);
    expect(sandbox.counts).toMatchObject({ getCardAccessList: 1, getFilesetAccess: 1, getWorkflowPermissions: 1, getPdpPolicies: 1 });
  });

  it('a card access list in another form than the page’s is drift for that card: exit 3, never an empty list', async () => {
    serveCaptured({ getCardAccessList: CARD_IDS.map((id) => accessListFor('badge', id, PAGE_ACCESS)) });
    const report = await run();
    expect(report.summary.gate).toBe('error');
    expect(errorsOf(report).join('\n')).toContain(`getCardAccessList: card ${CARD_IDS[0]}: API drift at resource.type: "page", expected "badge"`);
  });

  it('a page co-owned by the captured deleted group (active: false, served verbatim) names it among its owners who are not active, read once', async () => {
    const [p0, ...pages] = PAGES.pageAdminSummaries as ((typeof PAGES.pageAdminSummaries)[number] & { owners: { id: number; type: string; displayName: string }[] })[];
    const coOwned = { ...p0, owners: [...p0.owners, { id: DELETED_GROUP.id, type: 'GROUP', displayName: 'Group 19' }] };
    serveCaptured({ listPages: [{ pageAdminSummaries: [coOwned, ...pages] }], getGroup: [DELETED_GROUP] });
    const report = await run();
    expect(errorsOf(report)).toEqual([]);
    // Its user owner is in no user listing served (unknown), as in the run above; the group is deleted.
    expect(report.findings.find((f) => f.policy === 'pages-owner-active' && f.resource.id === String(p0.pageId))!.message).toBe(
      `Page Page 1 (${p0.pageId}) has owners who are not active: ["${p0.owners[0]!.id}: unknown","${DELETED_GROUP.name} (${DELETED_GROUP.id}): deleted"]`,
    );
    expect(sandbox.counts.getGroup).toBe(1);
  });

  it('an access list about another page is drift for the page asked about, never judged as its own', async () => {
    const [p0, p1, ...pages] = PAGES.pageAdminSummaries;
    const about = (asked: number, answered: number) => new ForPath(`/api/content/v1/share/accesslist/page/${asked}`, { ...PAGE_ACCESS, resource: { ...PAGE_ACCESS.resource, id: String(answered) } });
    serveCaptured({ getPageAccessList: [about(p0.pageId, p1.pageId), about(p1.pageId, p1.pageId), ...pages.map((p) => accessListFor('page', p.pageId))] });
    const report = await run();
    expect(report.summary.gate).toBe('error');
    const drift = `could not read page ${p0.pageId}: getPageAccessList: page ${p0.pageId}: API drift at resource.id: the answer is about "${p1.pageId}"`;
    expect(errorsOf(report)).toEqual([`pages-share-through-groups: ${drift}`, `pages-share-through-groups page/${p0.pageId}: ${drift}`]);
  });

  it('a summary without its owners list, or an account without its userId: that resource’s error, never an owner-less pass', async () => {
    const [p0, p1, ...pages] = PAGES.pageAdminSummaries;
    const { owners: _gone, ...p0WithoutOwners } = p0 as (typeof PAGES.pageAdminSummaries)[number] & { owners?: unknown };
    const [c0, ...cards] = CARDS.cardAdminSummaries;
    const { owners: _cardOwners, ...c0WithoutOwners } = c0;
    const [a0, ...accounts] = ACCOUNTS;
    const { userId: _userId, ...a0WithoutUserId } = a0;
    serveCaptured({
      listPages: [{ pageAdminSummaries: [p0WithoutOwners, { ...p1, owners: null }, ...pages] }],
      listCardSummaries: [{ cardAdminSummaries: [c0WithoutOwners, ...cards] }],
      listAccounts: [[a0WithoutUserId, ...accounts]],
    });
    const report = await run();
    expect(report.summary.gate).toBe('error');
    const errors = errorsOf(report);
    expect(errors).toEqual(
      expect.arrayContaining([
        `pages-owner-active page/${p0.pageId}: could not read page ${p0.pageId}: listPages: API drift at owners of page ${p0.pageId}: missing, so its owners are unknown`,
        `pages-owner-active page/${p1.pageId}: could not read page ${p1.pageId}: listPages: API drift at owners of page ${p1.pageId}: null, so its owners are unknown`,
        `cards-with-an-owner card/${c0.id}: could not read card ${c0.id}: listCardSummaries: API drift at owners of card ${c0.id}: missing, so its owners are unknown`,
        `accounts-owner-active account/${a0.id}: could not read account ${a0.id}: listAccounts: account ${a0.id} carries no userId, so its owner is unknown`,
      ]),
    );
    // The other pages, cards and accounts are judged as before.
    expect(findingKeys(report).filter((k) => k.startsWith('pages-owner-active'))).toEqual(pages.map((p) => `pages-owner-active page/${p.pageId}`).sort());
    // Without its owner, the account's OWNER entry cannot be told from a second owner: an error, never a pass.
    expect(report.findings.filter((f) => f.policy === 'accounts-share-edit-through-groups' && f.resource.id === String(a0.id)).map((f) => [f.item, f.status, f.message])).toEqual([
      ['1893952720', 'error', 'could not evaluate: policy accounts-share-edit-through-groups: assert: field not found: ownerId'],
    ]);
  });

  it('a summary whose ownerId is not its first owner, or beside no owners, leaves that page’s owner unknown: an error, never an owner-less pass', async () => {
    const [p0, p1, ...pages] = PAGES.pageAdminSummaries;
    serveCaptured({ listPages: [{ pageAdminSummaries: [{ ...p0, owners: [] }, { ...p1, ownerId: 31 }, ...pages] }] });
    const report = await run();
    expect(report.summary.gate).toBe('error');
    expect(report.findings.filter((f) => f.policy === 'pages-owner-active').map((f) => [f.resource.id, f.status, f.message])).toEqual([
      [String(p0.pageId), 'error', `could not read page ${p0.pageId}: listPages: API drift at ownerId of page ${p0.pageId}: ${p0.ownerId} is not its first owner (owners is empty), so its owner is unknown`],
      [String(p1.pageId), 'error', `could not read page ${p1.pageId}: listPages: API drift at ownerId of page ${p1.pageId}: 31 is not its first owner (USER ${p1.ownerId}), so its owner is unknown`],
      ...pages.map((p) => [String(p.pageId), 'violation', expect.any(String)]),
    ]);
    // Only the owner's policies: the page's sharing is judged as before.
    expect(report.findings.filter((f) => f.policy === 'pages-share-through-groups' && f.status === 'error')).toEqual([]);
  });

  it('an account share level in neither vocabulary is drift; v1’s READ/WRITE are mapped', async () => {
    const v1 = { list: [{ type: 'USER', id: '9', accessLevel: 'WRITE', name: 'Ben' }, { type: 'USER', id: '12', accessLevel: 'READ' }] };
    const odd = { list: [{ type: 'USER', id: '9', accessLevel: 'SUPERUSER' }] };
    serveCaptured({ getAccountShares: [v1, odd] });
    const report = await run();
    const shares = report.findings.filter((f) => f.policy === 'accounts-share-edit-through-groups');
    expect(shares.map((f) => [f.status, f.message])).toEqual([
      ['violation', `Account DataSet Copy Account (${ACCOUNTS[0].id}) lets user Ben (9) CAN_EDIT`],
      ['error', `could not read account ${ACCOUNTS[1].id}: getAccountShares: API drift at accessLevel of USER 9 on account ${ACCOUNTS[1].id}: "SUPERUSER" is in neither vocabulary`],
    ]);
  });
});
