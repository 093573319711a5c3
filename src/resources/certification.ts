// The certification status (op 11) as a document part of cards and datasets. An error answer
// is an evaluation error of that resource, never "not certified" (DESIGN §5).
import type { CertifiableEntityType } from '../client/types.js';
import type { DocumentPart } from './types.js';

export function certificationPart(entityType: CertifiableEntityType): DocumentPart {
  return {
    name: 'certification',
    load: (api, resource) => api.getCertificationStatus(entityType, String(resource.doc.id)),
  };
}

export const certificationSchema = {
  type: 'object',
  description: "certification status; state null = never certified, 'ACTIVE' = certified",
  properties: {
    tag: { type: 'string' },
    state: { type: ['string', 'null'], description: 'ACTIVE, EXPIRED, REQUESTED, PENDING or null' },
    metadata: {},
    updated: {},
  },
};
