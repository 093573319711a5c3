// Endpoints 3, 6 and 9: dataset tags, access list, index request.
import type { Transport } from './http.js';
import type { DatasetAccessList } from './types.js';

/** May replace the dataset's tag list rather than add to it (DESIGN §2); the answer body is ignored. */
export function createDatasetTags(transport: Transport, datasetId: string, tags: string[]): Promise<void> {
  return transport.write({
    operation: 'createDatasetTags',
    method: 'POST',
    path: '/api/data/ui/v3/datasources/{datasetId}/tags',
    params: { datasetId },
    body: tags,
  });
}

export function getDatasetPermissions(transport: Transport, datasetId: string): Promise<DatasetAccessList> {
  return transport.getJson<DatasetAccessList>({
    operation: 'getDatasetPermissions',
    method: 'GET',
    path: '/api/data/v3/datasources/{datasetId}/permissions',
    params: { datasetId },
  });
}

export function indexDataset(transport: Transport, datasetId: string): Promise<void> {
  return transport.write({
    operation: 'indexDataset',
    method: 'POST',
    path: '/api/query/v1/datasources/{datasetId}',
    params: { datasetId },
  });
}
