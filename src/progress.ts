// Progress of a run for a terminal: the engine knows nothing of it, so the API is wrapped and
// each answered read is counted per resource kind ("dataset 12/25"). Totals are known where
// the scope names the resources (datasets, file-set files); elsewhere only the count shows.
import type { InstanceApi, OperationId } from './client/types.js';
import type { Scope } from './resources/types.js';

export interface ProgressEvent {
  kind: string;
  /** Resources (or documents parts) of this kind read so far. */
  read: number;
  /** How many there are to read, when known. */
  total: number | null;
}

/** Which kind a read serves. Certification serves cards and datasets: it is shown on its own. */
const KIND_OF: Partial<Record<OperationId, string>> = {
  listReportSchedules: 'reportSchedule',
  getMisconfiguredReports: 'misconfigured report',
  getDatasetPermissions: 'dataset',
  getCertificationStatus: 'certification',
  getFileByPath: 'filesetFile',
  getCalculatedFieldStatistics: 'calculatedFields',
  listWorkflows: 'workflow',
};

export function withProgress(api: InstanceApi, scope: Scope, onProgress: (e: ProgressEvent) => void): InstanceApi {
  const totals: Record<string, number | null> = {
    dataset: scope.datasets.length || null,
    filesetFile: Object.values(scope.filesets).reduce((n, paths) => n + paths.length, 0) || null,
  };
  const read: Record<string, number> = {};
  const tick = (operation: OperationId, n = 1) => {
    const kind = KIND_OF[operation];
    if (!kind) return;
    read[kind] = (read[kind] ?? 0) + n;
    onProgress({ kind, read: read[kind], total: totals[kind] ?? null });
  };
  const single =
    <A extends unknown[], T>(operation: OperationId, call: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      const value = await call(...args);
      tick(operation, Array.isArray(value) ? value.length : 1);
      return value;
    };
  const paged =
    <A extends unknown[], T>(operation: OperationId, call: (...args: A) => AsyncIterable<T[]>) =>
    (...args: A): AsyncIterable<T[]> => ({
      async *[Symbol.asyncIterator]() {
        for await (const page of call(...args)) {
          tick(operation, page.length);
          yield page;
        }
      },
    });
  return {
    ...api,
    listReportSchedules: paged('listReportSchedules', api.listReportSchedules.bind(api)),
    getMisconfiguredReports: paged('getMisconfiguredReports', api.getMisconfiguredReports.bind(api)),
    getDatasetPermissions: single('getDatasetPermissions', api.getDatasetPermissions.bind(api)),
    getCertificationStatus: single('getCertificationStatus', api.getCertificationStatus.bind(api)),
    getFileByPath: single('getFileByPath', api.getFileByPath.bind(api)),
    getCalculatedFieldStatistics: single('getCalculatedFieldStatistics', api.getCalculatedFieldStatistics.bind(api)),
    listWorkflows: single('listWorkflows', api.listWorkflows.bind(api)),
    stats: () => api.stats(),
  };
}
