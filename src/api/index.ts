// The instance API client (DESIGN §2). One client = one run: GETs are memoised for its lifetime.
import { CLIENT_DEFAULTS } from './assumptions.js';
import { getCalculatedFieldStatistics } from './calculatedFields.js';
import { getCertificationStatus } from './certification.js';
import { duplicateDataFile, updateFilePermissions } from './dataFiles.js';
import { createDatasetTags, getDataset, getDatasetPermissions, indexDataset } from './datasets.js';
import { getFileByPath } from './filesets.js';
import { createTransport } from './http.js';
import { updateQueuePermissions } from './queues.js';
import { getMisconfiguredReports, listReportSchedules } from './reportSchedules.js';
import type { ClientOptions, InstanceApi } from './types.js';
import { listWorkflowModels, listWorkflows } from './workflows.js';
import { sendWrite } from './writes.js';

export * from './assumptions.js';
export { ApiError, type ApiErrorKind, isApiError, redactSecrets } from './errors.js';
export type * from './types.js';
export { OPERATION_IDS, QUEUE_PERMISSIONS } from './types.js';
export { badWriteRequest, WRITES, writeRequest } from './writes.js';

export function createClient(options: ClientOptions): InstanceApi {
  const t = createTransport(options);
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? CLIENT_DEFAULTS.pageSize));
  return {
    listReportSchedules: (query) => listReportSchedules(t, { pageSize, filter: options.scheduleFilter }, query),
    getMisconfiguredReports: () => getMisconfiguredReports(t, pageSize),
    createDatasetTags: (datasetId, tags) => createDatasetTags(t, datasetId, tags),
    updateQueuePermissions: (queueId, entries) => updateQueuePermissions(t, queueId, entries),
    updateFilePermissions: (dataFileId, body) => updateFilePermissions(t, dataFileId, body),
    getDatasetPermissions: (datasetId) => getDatasetPermissions(t, datasetId),
    getCalculatedFieldStatistics: () => getCalculatedFieldStatistics(t),
    getFileByPath: (filesetId, path) => getFileByPath(t, filesetId, path),
    indexDataset: (datasetId) => indexDataset(t, datasetId),
    duplicateDataFile: (dataFileId) => duplicateDataFile(t, dataFileId),
    getCertificationStatus: (entityType, entityId) => getCertificationStatus(t, entityType, entityId),
    listWorkflows: () => (options.workflowUrl ? listWorkflows(t) : listWorkflowModels(t, pageSize)),
    getDataset: (datasetId) => getDataset(t, datasetId),
    send: (request) => sendWrite(t, request),
    stats: () => t.stats(),
  };
}
