// Endpoints 5 and 10: data-file permissions (replace) and duplicate.
import type { Transport } from './http.js';
import { WRITES } from './writes.js';
import type { DataFile, DataFilePermissions } from './types.js';

/** Replaces the file's permissions; the documented answer is `{}`, any 2xx body is success. */
export function updateFilePermissions(
  transport: Transport,
  dataFileId: string,
  body: DataFilePermissions,
): Promise<void> {
  return transport.write({
    operation: 'updateFilePermissions',
    ...WRITES.updateFilePermissions,
    params: { dataFileId },
    body,
  });
}

export function duplicateDataFile(transport: Transport, dataFileId: string): Promise<DataFile> {
  return transport.writeJson<DataFile>({
    operation: 'duplicateDataFile',
    method: 'POST',
    path: '/api/data/v1/data-files/{dataFileId}/duplicate',
    params: { dataFileId },
  });
}
