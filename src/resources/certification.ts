// The certification status (op 11) as a document part of cards and datasets. An error answer
// is an evaluation error of that resource, never "not certified" (DESIGN §5).
import { CERTIFICATION_STATES } from '../api/assumptions.js';
import type { CertifiableEntityType } from '../api/types.js';
import type { DocumentPart } from './types.js';

export function certificationPart(entityType: CertifiableEntityType): DocumentPart {
  return {
    name: 'certification',
    operation: 'getCertificationStatus',
    load: (api, resource) => api.getCertificationStatus(entityType, String(resource.doc.id)),
  };
}

/**
 * `ACTIVE` is current, null is never certified, EXPIRED, PENDING and REQUESTED have lapsed
 * (CERTIFICATION_STATES; any other word is API drift of the read), so a policy must not wait for
 * one particular lapsed value.
 */
export const certificationSchema = {
  type: 'object',
  description: "certification status: state 'ACTIVE' = current, null = never certified, 'EXPIRED', 'PENDING' or 'REQUESTED' = lapsed",
  properties: {
    tag: { type: ['string', 'null'] },
    state: { type: ['string', 'null'], enum: [...CERTIFICATION_STATES, null], description: "'ACTIVE' (current), null (never certified), 'EXPIRED', 'PENDING' or 'REQUESTED' (lapsed)" },
    metadata: { description: 'null, or { adminCertified, approvalRequestId, approvalTemplateTitle, processType, userId }' },
    updated: { description: 'epoch milliseconds, or null' },
  },
};
