// Closed vocabularies: the words policies compare against, as the platform documents them. A
// word outside one is API drift (exit 3), never read as "none of these": an unknown access level
// would be no owner, an unknown permission no edit right, each a pass on an answer not understood.
// The certification endpoint's states are a choice, with CERTIFICATION_STATES in assumptions.ts.

/** Dataset access levels: the owner's and the share levels (PLATFORM.md §2.1, A19). */
export const DATASET_ACCESS_LEVELS = ['OWNER', 'CO_OWNER', 'CAN_EDIT', 'CAN_SHARE', 'CAN_VIEW'] as const;
/** A queue permission entry's permissions (api-spec "Queue permission entry"), read and written. */
export const QUEUE_PERMISSIONS = [
  'ADMIN',
  'SHARE',
  'DELETE',
  'WRITE',
  'READ',
  'CREATE_CONTENT',
  'READ_CONTENT',
  'UPDATE_CONTENT',
  'DELETE_CONTENT',
  'EXPORT',
  'EXECUTE',
] as const;
/** The dataset listing's certification process states (PLATFORM.md §2.2; checked by the dataset kind, per dataset). */
export const DATASET_CERTIFICATION_STATES = ['CERTIFIED', 'PENDING', 'REQUESTED', 'EXPIRED'] as const;
/** A file set's permissions (PLATFORM.md §7, `Filesets-API.yaml`). */
export const FILESET_PERMISSIONS = ['OWNER', 'EDIT', 'READ', 'NONE'] as const;
