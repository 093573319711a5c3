// Definitions of a finding, its resource, a fixed finding and a history trend point.
// Part of REPORT_SCHEMA (report-schema.ts), published as schema/report.schema.json.
import { closedObject } from '../core/schema-id.js';

export const FINDING_DEFINITIONS = {
  "findingOwner": closedObject(["type", "id", "name", "email", "state"], {
    "type": { "enum": ["USER", "GROUP"] },
    "id": { "type": "string" },
    "name": { "type": ["string", "null"] },
    "email": { "type": ["string", "null"] },
    "state": { "enum": ["active", "pending", "deactivated", "deleted", "unknown", null] },
    "team": { "type": "string", "minLength": 1 },
  }, {
    "description": "An owner resolved against the user listing: state active, pending, deactivated, deleted, unknown (in no listing), or null for a group.",
  }),
  "finding": closedObject(["policy", "severity", "status", "resource", "path", "message", "location", "fingerprint", "baseline", "fix", "waiver", "lifecycle", "firstSeen"], {
    "instance": { "$ref": "#/definitions/instanceName" },
    "policy": { "type": "string", "minLength": 1 },
    "severity": { "$ref": "#/definitions/severity" },
    "status": { "enum": ["violation", "waived", "error"] },
    "resource": { "$ref": "#/definitions/resource" },
    "owner": {
      "anyOf": [{ "$ref": "#/definitions/findingOwner" }, { "type": "null" }],
      "description": "Who owns the resource: the platform's owner field resolved against the user directory; null with `ownerUnknown` when the kind has none or it could not be read.",
    },
    "ownerUnknown": { "type": "string", "minLength": 1, "description": "Why the owner is null." },
    "team": {
      "type": ["string", "null"],
      "description": "The team the config's `owners:` map routes the finding to; null when no rule matches (absent without `owners:`).",
    },
    "path": { "type": ["string", "null"] },
    "item": {
      "type": ["string", "null"],
      "description": "Key of the offending `each` item (its id, else its index) that waivers match; null for the whole resource.",
    },
    "message": { "type": "string" },
    "location": { "$ref": "#/definitions/nullableLocation" },
    "fingerprint": { "type": "string", "minLength": 1 },
    "baseline": { "enum": ["new", "known", null] },
    "fix": { "type": ["object", "null"], "description": "The change a fix would make, as planned (steward fix); null in check." },
    "waiver": { "oneOf": [{ "type": "null" }, { "$ref": "#/definitions/waiver" }] },
    "lifecycle": {
      "enum": ["new", "open", "reopened", null],
      "description": "Against the run history: new (never seen), open (in the previous run that evaluated its policy), reopened (seen, gone, back); null without a history and for errors.",
    },
    "firstSeen": {
      "type": ["string", "null"],
      "format": "date-time",
      "description": "When the history first saw this fingerprint; null without a history and for errors.",
    },
    "runWide": { "const": true, "description": "Only on an error: its cause stopped the whole run (stoppedBy), where it is reported once." },
  }, {
    "if": { "properties": { "status": { "const": "waived" } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
    "then": { "properties": { "waiver": { "$ref": "#/definitions/waiver" } } },
  }),
  "resource": closedObject(["kind", "id", "name"], {
    "kind": { "type": "string", "minLength": 1 },
    "id": { "type": "string", "minLength": 1 },
    "name": { "type": ["string", "null"] },
    "owner": { "$ref": "#/definitions/findingOwner", "description": "Written by steward 0.x before `finding.owner`; read, never written." },
  }),
  "fixedFinding": closedObject(["policy", "severity", "resource", "fingerprint", "message", "firstSeen", "fixedAt"], {
    "instance": { "$ref": "#/definitions/instanceName" },
    "policy": { "type": "string", "minLength": 1 },
    "severity": { "$ref": "#/definitions/severity" },
    "resource": { "$ref": "#/definitions/resource" },
    "fingerprint": { "type": "string", "minLength": 1 },
    "message": { "type": "string" },
    "firstSeen": { "type": "string", "format": "date-time" },
    "fixedAt": { "type": "string", "format": "date-time" },
    "team": {
      "type": ["string", "null"],
      "description": "The team the config's `owners:` map routes it to (policy, kind and tag rules only: its owner is not kept).",
    },
  }),
  "historyPoint": closedObject(["run", "startedAt", "gate", "violations", "bySeverity", "new", "reopened", "fixed"], {
    "run": { "type": "integer", "minimum": 1 },
    "startedAt": { "type": "string", "format": "date-time" },
    "gate": { "enum": ["pass", "fail", "error"] },
    "violations": { "$ref": "#/definitions/count" },
    "bySeverity": { "$ref": "#/definitions/bySeverity" },
    "new": { "$ref": "#/definitions/count" },
    "reopened": { "$ref": "#/definitions/count" },
    "fixed": { "$ref": "#/definitions/count" },
  }),
};
