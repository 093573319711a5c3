// 7. calculated-field statistics, 8. file by path, 11. certification status.
import { FILE_PATH_QUERY_PARAM } from '../api/assumptions.js';
import type { CertifiableEntityType } from '../api/types.js';
import type { Handlers, RequestContext } from './context.js';
import { makeCertification } from './entities.js';
import { HttpError, ok, type Reply } from './http.js';

// The sandbox emulates the platform as we assume it: the same named constant as the client.
export { FILE_PATH_QUERY_PARAM };

export function getCalculatedFieldStatistics(ctx: RequestContext): Reply {
  return ok(ctx.state.calculatedFields);
}

export function getFileByPath(ctx: RequestContext): Reply {
  const { filesetId } = ctx.params;
  const path = ctx.query.get(FILE_PATH_QUERY_PARAM);
  if (path === null || path === '') throw new HttpError(400, `Query parameter ${FILE_PATH_QUERY_PARAM} is required`);
  const files = ctx.state.filesets.get(filesetId);
  if (!files) throw new HttpError(404, `File set ${filesetId} not found`);
  const file = files.get(path);
  if (!file) throw new HttpError(404, `File ${path} not found in file set ${filesetId}`);
  return ok(file);
}

/** 200 for every existing card or dataset (state null = never certified); 404 otherwise. */
export function getCertificationStatus(ctx: RequestContext): Reply {
  const { entityType, entityId } = ctx.params;
  if (entityType !== 'CARD' && entityType !== 'DATA_SOURCE') {
    throw new HttpError(400, `Unknown entity type ${entityType}: CARD or DATA_SOURCE`);
  }
  const exists =
    (entityType as CertifiableEntityType) === 'CARD'
      ? ctx.state.cards.has(entityId)
      : ctx.state.datasetAccess.has(entityId);
  if (!exists) {
    throw new HttpError(404, `${entityType === 'CARD' ? 'Card' : 'Dataset'} ${entityId} not found`);
  }
  return ok(ctx.state.certifications.get(`${entityType}:${entityId}`) ?? makeCertification(null));
}

/** The operations this file answers (the router takes them from here). */
export const handlers = { getCalculatedFieldStatistics, getFileByPath, getCertificationStatus } satisfies Handlers;
