// What `steward init` writes: a commented config, one example policy (with tests), an empty
// waivers file and a scheduled GitHub workflow that uploads SARIF to code scanning.

/** The Action the generated workflow uses; point it at where you host steward. */
export const INIT_ACTION_REF = 'steward/steward@v1';

import { DISCOVERABLE_SCOPES } from '../library/index.js';

/** `scope.<key>: all` for every kind a listing can discover, each with the grant a complete listing needs. */
const SCOPE = DISCOVERABLE_SCOPES.map((s) => `  ${`${s.key}: all`.padEnd(28)}# every ${s.description}${s.grant ? ` (complete with ${s.grant})` : ''}`).join('\n');

const CONFIG = `# steward configuration. Reference: schema/config.schema.json of the steward package.
# yaml-language-server: $schema=node_modules/@steward-pac/steward/schema/config.schema.json

instance:
  baseUrl: https://your-instance.example.com   # or STEWARD_BASE_URL
  # workflowUrl: https://api.example.com       # optional workflow API host; unset: the instance host
  # tokenHeader: X-DOMO-Developer-Token        # the header your instance reads the developer token from
  # scheduleFilter: USER                       # without the content admin grant (default ALL)
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

const WORKFLOW = `# Scheduled compliance run: findings land in code scanning (SARIF), the job summary and
# annotations. Set the STEWARD_TOKEN secret (and STEWARD_WORKFLOW_TOKEN if it differs).
# The run history lives in the Actions cache: each run restores the newest one (key prefix),
# records itself, and saves a new entry under its own run id.
name: steward
on:
  schedule:
    - cron: '17 6 * * *'
  workflow_dispatch:

permissions:
  contents: read
  security-events: write

jobs:
  steward:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v6
      - name: Restore the run history
        uses: actions/cache/restore@v5
        with:
          path: .steward/history.sqlite
          key: steward-history-\${{ github.run_id }}
          restore-keys: steward-history-
      - id: steward
        uses: ${INIT_ACTION_REF}
        with:
          config: steward.yaml
          token: \${{ secrets.STEWARD_TOKEN }}
          workflow-token: \${{ secrets.STEWARD_WORKFLOW_TOKEN }}
          sarif-file: steward.sarif
          history: .steward/history.sqlite
      - name: Save the run history
        if: always() && hashFiles('.steward/history.sqlite') != ''
        uses: actions/cache/save@v5
        with:
          path: .steward/history.sqlite
          key: steward-history-\${{ github.run_id }}
      - name: Upload SARIF to code scanning
        if: always() && steps.steward.outputs.sarif-file != ''
        uses: github/codeql-action/upload-sarif@v4
        with:
          sarif_file: \${{ steps.steward.outputs.sarif-file }}
          category: steward
`;

/** Relative path → content. */
export const INIT_FILES: Readonly<Record<string, string>> = {
  'steward.yaml': CONFIG,
  'policies/example.yaml': POLICY,
  'waivers.yaml': WAIVERS,
  '.github/workflows/steward.yml': WORKFLOW,
};
