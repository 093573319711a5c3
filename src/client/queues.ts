// Endpoint 4: queue permissions (the body replaces the whole list).
import type { Transport } from './http.js';
import type { QueuePermissionEntry } from './types.js';

/** The answer is a success message or an empty body: any 2xx is success. */
export function updateQueuePermissions(
  transport: Transport,
  queueId: string,
  entries: QueuePermissionEntry[],
): Promise<void> {
  return transport.write({
    operation: 'updateQueuePermissions',
    method: 'POST',
    path: '/api/queues/v1/{queueId}/permissions',
    params: { queueId },
    body: entries,
  });
}
