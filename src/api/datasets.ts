// Endpoints 3, 6 and 9: dataset tags, access list, index request.
import { DATASET_PATH } from './assumptions.js';
import type { Transport } from './http.js';
import { WRITES } from './writes.js';
import type { DatasetAccessList, DatasetDetails } from './types.js';

/** Replaces the dataset's tag list (the platform's own library says so); the answer body is ignored. */
export function createDatasetTags(transport: Transport, datasetId: string, tags: string[]): Promise<void> {
  return transport.write({
    operation: 'createDatasetTags',
    ...WRITES.createDatasetTags,
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
    ...WRITES.indexDataset,
    params: { datasetId },
  });
}

/** Beyond the spec (DATASET_PATH): the dataset object, read for its tags. */
export function getDataset(transport: Transport, datasetId: string): Promise<DatasetDetails> {
  return transport.getJson<DatasetDetails>({
    operation: 'getDataset',
    method: 'GET',
    path: DATASET_PATH,
    params: { datasetId },
  });
}
