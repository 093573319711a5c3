// Endpoint 12: the workflow list, on the workflow API host with Bearer auth.
import { WORKFLOWS_PATH } from './assumptions.js';
import type { Transport } from './http.js';
import type { Workflow } from './types.js';

export function listWorkflows(transport: Transport): Promise<Workflow[]> {
  return transport.getJson<Workflow[]>({
    operation: 'listWorkflows',
    method: 'GET',
    api: 'workflow',
    path: WORKFLOWS_PATH,
  });
}
