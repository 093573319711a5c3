// 12. the workflow API under <base>/workflow, with bearer auth checked by the server.
import type { RequestContext } from './context.js';
import { HttpError, ok, type Reply } from './http.js';

/**
 * The spec does not show the workflow list body. The sandbox answers a JSON array of items
 * with these fields (a workflow with no name has `name: ""`).
 */
export const SANDBOX_WORKFLOW_ITEM_FIELDS = ['id', 'name', 'description', 'status', 'createdAt'] as const;

export function listWorkflows(ctx: RequestContext): Reply {
  return ok(ctx.state.workflows);
}

/** Not one of the 12 operations; gives "unknown or invisible id" its 404. */
export function getWorkflow(ctx: RequestContext): Reply {
  const workflow = ctx.state.workflows.find((w) => w.id === ctx.params.workflowId);
  if (!workflow) throw new HttpError(404, `Workflow ${ctx.params.workflowId} not found or not visible`, false);
  return ok(workflow);
}
