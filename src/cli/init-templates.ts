// What `steward init` writes: a commented config, one example policy (with tests), an empty
// waivers file and a scheduled GitHub workflow that uploads SARIF to code scanning.

import { DISCOVERABLE_SCOPES, packageVersion } from '../library/without-policies.js';

/**
 * Third-party actions the workflow uses, pinned by commit (a tag can be moved to other code):
 * the commits are the tags' as listed by `git ls-remote` on each action's repository.
 */
export const PINNED_ACTIONS = {
  checkout: 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1',
  setupNode: 'actions/setup-node@820762786026740c76f36085b0efc47a31fe5020 # v7.0.0',
  cacheRestore: 'actions/cache/restore@27d5ce7f107fe9357f9df03efb73ab90386fccae # v5.0.5',
  cacheSave: 'actions/cache/save@27d5ce7f107fe9357f9df03efb73ab90386fccae # v5.0.5',
  uploadSarif: 'github/codeql-action/upload-sarif@8aad20d150bbac5944a9f9d289da16a4b0d87c1e # v4.36.2',
} as const;

/** `scope.<key>: all` for every kind a listing can discover, each with the grant a complete listing needs. */
const SCOPE = DISCOVERABLE_SCOPES.map((s) => `  ${`${s.key}: all`.padEnd(28)}# every ${s.description}${s.grant ? ` (complete with ${s.grant})` : ''}`).join('\n');

const CONFIG = `# steward configuration. Reference: schema/config.schema.json of the steward package.
# yaml-language-server: $schema=node_modules/@steward-pac/steward/schema/config.schema.json

instance:
  baseUrl: https://your-instance.example.com   # or STEWARD_BASE_URL
  # workflowUrl: https://api.example.com       # optional workflow API host; unset: the instance host
  # tokenHeader: X-DOMO-Developer-Token        # the header your instance reads the developer token from
  # scheduleFilter: USER                       # without the content admin grant (default ALL)
  # tokenId: 186852                            # the token's access-token id (not the token): its expiry is
  #                                            # warned of, and a kind read with \`all\` whose grant its user lacks
  #                                            # is partial coverage (exit 3 unless acceptPartialCoverage)
  # The token is never in this file: set STEWARD_TOKEN (and STEWARD_WORKFLOW_TOKEN, optional).
  # Run \`steward doctor\` first: it checks the token, the grants and the scope ids.

# Policy files or folders, relative to this file; "builtin" is the pack shipped with steward.
policies: [builtin, policies/]

# Per-policy parameter overrides.
params:
  calculated-fields-valid: { maxInvalid: 0 }

# What to check: \`all\` reads each kind's listing; or name ids (a list, { file: ids.txt } with
# one id a line, or { all: true, exclude: [...] }). Without a kind's grant its listing holds only
# what the token's user can see: \`steward doctor\` names the grants. Cards sent by report
# schedules are added automatically; file sets take { <set id>: [/path/a.csv] } for named files.
scope:
${SCOPE}

# Declared permission state kept in this repository, one resource per file.
# Uncomment once the folders hold manifests: a glob that matches no file is an error.
# manifests:
#   queues: permissions/queues/*.yaml
#   dataFiles: permissions/data-files/*.yaml

waivers: waivers.yaml

# Lowest severity of an unwaived violation that fails the run: info|low|medium|high|critical|none.
failOn: low
concurrency: 8
`;

const POLICY = `# An example policy. Run its tests with \`steward test policies/\`.
# yaml-language-server: $schema=../node_modules/@steward-pac/steward/schema/policy.schema.json
policies:
  - id: example-schedules-have-a-title
    title: Report schedules have a title
    description: An untitled schedule is hard to review in an audit. Give it a title.
    severity: low
    resource: reportSchedule
    assert: resource.title != ''
    message: "Schedule {{ resource.id }} has no title"
    tags: [example]
    tests:
      - name: an untitled schedule is caught
        resource: { id: 1, title: "" }
        violations: 1
      - name: a titled schedule passes
        resource: { id: 2, title: Weekly sales }
        violations: 0
`;

const WAIVERS = `# yaml-language-server: $schema=node_modules/@steward-pac/steward/schema/waivers.schema.json
# Accepted exceptions. Waived findings are still reported, as waived.
# Each waiver needs a reason, an owner and an expiry date (from that day on it no longer applies).
waivers: []
#  - policy: queue-no-admin-for-users
#    resource: q-finance-intake       # an id, or a glob (* and ?)
#    item: "7"                        # optional: one item of an \`each\` policy
#    reason: break-glass account, reviewed quarterly
#    owner: governance@example.com
#    expires: 2027-03-31
`;

/** The workflow, running `stewardPackage` (the package at an exact version). */
const workflow = (stewardPackage: string) => `# Scheduled compliance run: the text report in the step log, findings as annotations, the
# markdown report as the job summary and SARIF in code scanning. Set the STEWARD_TOKEN secret
# (and STEWARD_WORKFLOW_TOKEN if it differs). steward runs from npm at the exact version init
# wrote (\`npx -y ${stewardPackage}\`): the token only ever reaches that package. Third-party
# actions are pinned by commit, their tag beside it.
# The run history lives in the Actions cache: each run restores the newest one (key prefix),
# records itself, and saves a new entry under its own run id; the concurrency group keeps two
# runs from racing for it.
name: steward
on:
  schedule:
    - cron: '17 6 * * *'
  workflow_dispatch:

permissions:
  contents: read
  actions: read
  security-events: write

concurrency:
  group: steward-\${{ github.ref }}
  cancel-in-progress: false

jobs:
  steward:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: ${PINNED_ACTIONS.checkout}
        with:
          persist-credentials: false
      - uses: ${PINNED_ACTIONS.setupNode}
        with:
          node-version: 24
      - name: Restore the run history
        uses: ${PINNED_ACTIONS.cacheRestore}
        with:
          path: .steward/history.sqlite
          key: steward-history-\${{ github.run_id }}
          restore-keys: steward-history-
      - name: steward check
        env:
          STEWARD_TOKEN: \${{ secrets.STEWARD_TOKEN }}
          STEWARD_WORKFLOW_TOKEN: \${{ secrets.STEWARD_WORKFLOW_TOKEN }}
        run: >-
          npx -y ${stewardPackage} check --config steward.yaml
          --history .steward/history.sqlite
          --output sarif=steward.sarif
          --output markdown="$GITHUB_STEP_SUMMARY"
          --output github=/dev/stdout
      - name: Save the run history
        if: always() && hashFiles('.steward/history.sqlite') != ''
        uses: ${PINNED_ACTIONS.cacheSave}
        with:
          path: .steward/history.sqlite
          key: steward-history-\${{ github.run_id }}
      - name: Upload SARIF to code scanning
        if: always() && hashFiles('steward.sarif') != ''
        uses: ${PINNED_ACTIONS.uploadSarif}
        with:
          sarif_file: steward.sarif
          category: steward
`;

/** Relative path → content; the workflow runs the package at the version init was run with. */
export function initFiles(): Readonly<Record<string, string>> {
  return {
    'steward.yaml': CONFIG,
    'policies/example.yaml': POLICY,
    'waivers.yaml': WAIVERS,
    '.github/workflows/steward.yml': workflow(`@steward-pac/steward@${packageVersion()}`),
  };
}
