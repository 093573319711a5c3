// Inline equivalents of the three mission policies (the built-in pack's are preferred when present).
export const MISSION_POLICIES = `
policies:
  - id: no-misconfigured-schedules
    title: Report schedules are not misconfigured
    description: A schedule in the misconfigured list does not send.
    severity: high
    resource: reportSchedule
    assert: "!resource.misconfigured"
    message: "Schedule {{ resource.id }} ({{ resource.title != null ? resource.title : '' }}) is misconfigured"
  - id: certified-datasets-need-owner-group
    title: Certified datasets have a GROUP owner
    description: Certification needs an accountable group.
    severity: high
    resource: dataset
    when: "resource.certification.state == 'ACTIVE'"
    assert: "resource.access.list.exists(e, e.type == 'GROUP' && e.accessLevel == 'OWNER')"
    message: "Certified dataset {{ resource.id }} has no GROUP owner"
  - id: queue-no-admin-for-users
    title: Queues grant ADMIN only through groups
    description: A single user holding ADMIN bypasses review.
    severity: high
    resource: queue
    each: resource.permissions
    when: "item.type == 'USER'"
    assert: "!('ADMIN' in item.permissions)"
    message: "User {{ item.name }} ({{ item.id }}) holds ADMIN on queue {{ resource.id }}"
    fix: { revoke: [ADMIN] }
`;

/** What the three mission policies find on the demo instance (demo/PLANTED.md), as `summary()` lists it. */
export const MISSION_PLANTED = [
  'violation certified-datasets-need-owner-group ds-hr-certified',
  'violation certified-datasets-need-owner-group ds-sales-certified',
  'violation no-misconfigured-schedules 9001',
  'violation no-misconfigured-schedules 9002',
  'violation no-misconfigured-schedules 9003',
  'violation queue-no-admin-for-users q-finance-intake 7',
  'violation queue-no-admin-for-users q-support-escalations 12',
  'violation queue-no-admin-for-users q-support-escalations 15',
];
