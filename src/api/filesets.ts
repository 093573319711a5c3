// Endpoint 8: file metadata by path within a file set.
import { FILE_PATH_QUERY_PARAM } from './assumptions.js';
import type { Transport } from './http.js';
import type { FilesetFile } from './types.js';

export function getFileByPath(transport: Transport, filesetId: string, path: string): Promise<FilesetFile> {
  return transport.getJson<FilesetFile>({
    operation: 'getFileByPath',
    method: 'GET',
    path: '/api/files/v1/filesets/{filesetId}/path',
    params: { filesetId },
    query: { [FILE_PATH_QUERY_PARAM]: path },
  });
}
