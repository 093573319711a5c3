// Endpoint 4: queue permissions (each entry sets its entity's permissions; [] removes them).
import type { Transport } from './http.js';
import { WRITES } from './writes.js';
import type { QueuePermissionEntry } from './types.js';

/** The answer is a success message or an empty body: any 2xx is success. */
export function updateQueuePermissions(
  transport: Transport,
  queueId: string,
  entries: QueuePermissionEntry[],
): Promise<void> {
  return transport.write({
    operation: 'updateQueuePermissions',
    ...WRITES.updateQueuePermissions,
    params: { queueId },
    body: entries,
  });
}
