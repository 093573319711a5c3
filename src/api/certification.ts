// Endpoint 11: certification status of a card or a dataset (state null = never certified).
import type { Transport } from './http.js';
import type { CertifiableEntityType, CertificationStatus } from './types.js';

export function getCertificationStatus(
  transport: Transport,
  entityType: CertifiableEntityType,
  entityId: string,
): Promise<CertificationStatus> {
  return transport.getJson<CertificationStatus>({
    operation: 'getCertificationStatus',
    method: 'GET',
    path: '/api/tags/v3/{entityType}/{entityId}/system/CERTIFIED/state',
    params: { entityType, entityId },
  });
}
