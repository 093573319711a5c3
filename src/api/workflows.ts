// Endpoint 12: the workflow list, on the workflow API host with Bearer auth; without a workflow
// URL, the instance host's model list (beyond the spec: WORKFLOW_MODELS_PATH, developer token).
import { WORKFLOW_MODELS_PATH, WORKFLOWS_PATH } from './assumptions.js';
import type { Transport } from './http.js';
import { pages } from './pagination.js';
import type { Workflow } from './types.js';

export function listWorkflows(transport: Transport): Promise<Workflow[]> {
  return transport.getJson<Workflow[]>({
    operation: 'listWorkflows',
    method: 'GET',
    api: 'workflow',
    path: WORKFLOWS_PATH,
  });
}

export async function listWorkflowModels(transport: Transport, pageSize: number): Promise<Workflow[]> {
  const all: Workflow[] = [];
  const request = { operation: 'listWorkflowModels', method: 'GET', path: WORKFLOW_MODELS_PATH } as const;
  for await (const page of pages<Workflow>(transport, request, pageSize)) all.push(...page);
  return all;
}
