// The certification status (op 11) as a document part of cards and datasets. An error answer
// is an evaluation error of that resource, never "not certified" (DESIGN §5).
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
 * `ACTIVE` is current, null is never certified, and any other state is lapsed: the platform's
 * docs show only ACTIVE and null for this endpoint (EXPIRED, PENDING, REQUESTED belong to the
 * dataset object's own vocabulary), so a policy must not wait for one particular lapsed value.
 */
export const certificationSchema = {
  type: 'object',
  description: "certification status: state 'ACTIVE' = current, null = never certified, anything else = lapsed",
  properties: {
    tag: { type: ['string', 'null'] },
    state: { type: ['string', 'null'], description: "'ACTIVE' (current), null (never certified), other values lapsed" },
    metadata: { description: 'null, or { adminCertified, approvalRequestId, approvalTemplateTitle, processType, userId }' },
    updated: { description: 'epoch milliseconds, or null' },
  },
};
