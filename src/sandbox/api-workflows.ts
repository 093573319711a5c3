// 12. the workflow API under <base>/workflow, with bearer auth checked by the server, and the
// instance host's model list (beyond the spec), limit/skip, developer token.
import type { Handlers, RequestContext } from './context.js';
import { HttpError, intParam, ok, type Reply } from './http.js';

/**
 * The spec does not show the workflow list body. The sandbox answers both routes with the
 * instance host's captured model fields (a workflow with no name has `name: ""`).
 */
export const SANDBOX_WORKFLOW_ITEM_FIELDS = [
  'id',
  'name',
  'description',
  'owner',
  'createdBy',
  'createdOn',
  'updatedBy',
  'updatedOn',
  'lastVersionUpdatedBy',
  'lastVersionUpdatedOn',
  'userPermissions',
] as const;

export function listWorkflows(ctx: RequestContext): Reply {
  return ok(ctx.state.workflows);
}

/** Default page of the model list when no limit is sent (the captured call sends limit=100). */
export const WORKFLOW_MODELS_LIMIT_DEFAULT = 100;

export function listWorkflowModels(ctx: RequestContext): Reply {
  const limit = intParam(ctx.query, 'limit') ?? WORKFLOW_MODELS_LIMIT_DEFAULT;
  const skip = ctx.switches.ignoreSkip ? 0 : (intParam(ctx.query, 'skip') ?? 0);
  return ok(ctx.state.workflows.slice(skip, skip + limit));
}

/** Not one of the 12 operations; gives "unknown or invisible id" its 404. */
export function getWorkflow(ctx: RequestContext): Reply {
  const workflow = ctx.state.workflows.find((w) => w.id === ctx.params.workflowId);
  if (!workflow) throw new HttpError(404, `Workflow ${ctx.params.workflowId} not found or not visible`, false);
  return ok(workflow);
}

/** The operations this file answers (the router takes them from here). */
export const handlers = { listWorkflows, listWorkflowModels } satisfies Handlers;
