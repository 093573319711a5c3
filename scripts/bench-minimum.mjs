// The requests the bench's checks must make, exactly: per operation, the fewest the whole
// built-in pack can make over a sandbox's state (each listing once, each per-resource read once),
// and the limit/skip listings' read-ahead past their end at a concurrency (scripts/bench.mjs
// compares each run's counts, the sandbox's, with these).

/** Passed to the client explicitly so the minimum below uses the same page size. */
export const PAGE_SIZE = 100;

/** Everything the instance holds: content named by id, the people kinds discovered (`all`). */
export function scopeOf(state) {
  return {
    datasets: [...state.datasetAccess.keys()],
    cards: [...state.cards],
    filesets: Object.fromEntries([...state.filesets].map(([id, files]) => [id, [...files.keys()]])),
    users: 'all',
    groups: 'all',
    roles: 'all',
    accessTokens: 'all',
    pages: 'all',
    accounts: 'all',
  };
}

/**
 * Fewest requests of the sharing reads: the page summary (100 a page until a short page) and
 * one access list per page, one access list per card judged, one PDP read per dataset, one
 * file-set access read per set, one permission read per workflow, the account list and one
 * share list per account.
 */
function minimumSharing(state, scope) {
  const sentCards = new Set(state.schedules.map((s) => String(s.cardId)));
  const cards = new Set([...scope.cards, ...sentCards]);
  return {
    listPages: Math.floor(state.sharing.pages.length / 100) + 1,
    getPageAccessList: state.sharing.pages.length,
    getCardAccessList: cards.size,
    getPdpPolicies: scope.datasets.length,
    getFilesetAccess: Object.keys(scope.filesets).length,
    getWorkflowPermissions: state.workflows.length,
    listAccounts: 1,
    getAccountShares: state.sharing.accounts.length,
  };
}

/**
 * Fewest requests of the people kinds and the owner parts: each listing once and whole (offset
 * listings with a total: ceil(n / size) pages, at least one; the group list ends on a short
 * page: floor(n / 100) + 1), the users twice (live, deleted), the grants of each custom role
 * (the policy selects on `system` first) with the authorities list once, the Admin role's
 * holders only, and each group owning a group once.
 */
export function minimumPeople(state) {
  const pagesOf = (n, size) => Math.max(1, Math.ceil(n / size));
  const { users, roles, groups } = state.people;
  const deleted = users.filter((u) => u.state === 'deleted').length;
  const admins = users.filter((u) => u.roleId === 1 && u.state !== 'deleted').length;
  return {
    searchUsers: pagesOf(users.length - deleted, 200) + pagesOf(deleted, 200),
    listGroups: Math.floor(groups.length / 100) + 1,
    listRoles: 1,
    getRoleAuthorities: roles.filter((r) => r.id > 5).length,
    listAuthorities: 1,
    listRoleUsers: pagesOf(admins, 50),
    listAccessTokens: 1,
    // Each owning group's state once, however many groups it owns (a group may own itself).
    getGroup: new Set(groups.filter((g) => !g.deleted).flatMap((g) => g.owners.filter((o) => o.type === 'GROUP').map((o) => o.id))).size,
  };
}

/**
 * The owner parts' listings: datasets 50 a page, the card search and file sets 100, queues and
 * data files unpaged; the card admin summary (every owner of a card) 100 a page until a short page.
 */
export function minimumOwners(state) {
  const pagesOf = (n, size) => Math.max(1, Math.ceil(n / size));
  return {
    listDatasets: pagesOf(state.datasetAccess.size, 50),
    searchCards: pagesOf(state.cards.size, 100),
    listCardSummaries: Math.floor(state.cards.size / 100) + 1,
    searchFilesets: pagesOf(state.filesets.size, 100),
    listQueues: 1,
    listDataFiles: 1,
  };
}

/**
 * Fewest requests the whole built-in pack can make: one per page (a limit/skip list ends on a
 * short or empty page, so floor(n/size)+1 pages), one per dataset access list and per dataset
 * certification, one certification per card some schedule sends (cards nobody sends are not
 * selected), one per file path, one each for the statistics and the workflow list, and one
 * live-permission read per declared queue and data file (the drift policies).
 */
export function minimumFullPack(state, scope) {
  const pages = (n) => Math.floor(n / PAGE_SIZE) + 1;
  const sentCards = new Set(state.schedules.map((s) => String(s.cardId)));
  return {
    listReportSchedules: pages(state.schedules.length),
    getMisconfiguredReports: pages(state.misconfigured.length),
    getDatasetPermissions: scope.datasets.length,
    getCertificationStatus: scope.datasets.length + sentCards.size,
    getFileByPath: Object.values(scope.filesets).flat().length,
    getCalculatedFieldStatistics: 1,
    listWorkflows: 1,
    getQueuePermissions: 4,
    getDataFilePermissions: 3,
    ...minimumOwners(state),
    ...minimumPeople(state),
    ...minimumSharing(state, scope),
  };
}

/**
 * Requests a limit/skip listing of `pages` pages (the minimum, its short or empty last page
 * included) makes at concurrency `c`: after SPECULATE_AFTER_PAGES full pages the client reads
 * ahead, doubling its window up to c (src/api/pagination.ts), so up to c − 1 go past the end.
 */
function withReadAhead(pages, c, after = 3) {
  let requested = 1;
  let window = 1;
  for (let i = 0; i < pages - 1; i++) {
    if (i + 1 >= after) window = Math.min(window * 2, c);
    requested = Math.max(requested, i + window + 1);
  }
  return Math.max(requested, pages);
}

/** The exact requests per operation at concurrency `c`: the minimum plus the read-ahead of limit/skip lists. */
export function expectedFullPack(state, scope, c) {
  const minimum = minimumFullPack(state, scope);
  return {
    ...minimum,
    listReportSchedules: withReadAhead(minimum.listReportSchedules, c),
    getMisconfiguredReports: withReadAhead(minimum.getMisconfiguredReports, c),
  };
}
