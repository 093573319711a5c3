// Public surface of the sandbox (DESIGN §3): what tests, benchmarks and the CLI import.
import type { Sandbox } from './types.js';

export { SANDBOX_RECIPIENT_EVERY, SANDBOX_SCHEDULE_FILTER_DEFAULT } from './api-schedules.js';
export { FILE_PATH_QUERY_PARAM } from './api-metadata.js';
export { SANDBOX_WORKFLOW_ITEM_FIELDS } from './api-workflows.js';
export {
  demoConfigPath,
  demoDir,
  findPackageRoot,
  PLANTED_CARD_IDS,
  PLANTED_DATA_FILES,
  PLANTED_DATASET_IDS,
  PLANTED_DRIFT,
  PLANTED_FILESET_ID,
  PLANTED_FILESET_PATHS,
  PLANTED_QUEUES,
  PLANTED_SCHEDULE_IDS,
} from './demo.js';
export { FILLER_ID_BASE, generateState, SANDBOX_DEFAULT_SEED, SANDBOX_DEFAULT_SIZE } from './generator.js';
export { NO_FAULTS } from './faults.js';
export { MALFORMED_JSON_BODY, startSandbox } from './server.js';
export { WORKFLOW_PREFIX } from './routes.js';
export type * from './types.js';
export type { SandboxSchedule, SandboxWorkflow } from './entities.js';

/** What `steward sandbox` prints: where to point steward, and with which token. */
export function describeSandbox(s: Sandbox): string {
  const lines = [
    `steward sandbox listening on ${s.baseUrl}`,
    `  base URL:      ${s.baseUrl}`,
    `  workflow URL:  ${s.workflowUrl}`,
    `  token:         ${s.token}`,
  ];
  if (s.workflowToken !== s.token) lines.push(`  workflow token: ${s.workflowToken}`);
  lines.push(
    '',
    'Point steward at it:',
    `  STEWARD_BASE_URL=${s.baseUrl} STEWARD_WORKFLOW_URL=${s.workflowUrl} STEWARD_TOKEN=${s.token} steward check`,
  );
  return lines.join('\n');
}
