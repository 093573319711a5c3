// The instance API (DESIGN §2): the operations table, the typed client built from it (one
// client = one run: GETs are memoised for its lifetime), errors, snapshots.
export * from './assumptions.js';
export { createClient } from './client.js';
export { ApiError, type ApiErrorKind, isApiError, redactJson, redactSecrets } from './errors.js';
export { OPERATION_IDS, OPERATIONS, type OperationSpec, operation } from './operations.js';
export type * from './types.js';
export { QUEUE_PERMISSIONS } from './vocabularies.js';
export { badWriteRequest, PLANNABLE_WRITES, writeRequest } from './writes.js';
