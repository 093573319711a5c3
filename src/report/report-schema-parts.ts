// Definitions the report's sections share: counts, severities, locations, waivers, policies.
// Part of REPORT_SCHEMA (report-schema.ts), published as schema/report.schema.json.
import { closedObject } from '../core/schema-id.js';

export const PART_DEFINITIONS = {
  "count": { "type": "integer", "minimum": 0 },
  "instanceName": {
    "type": "string",
    "minLength": 1,
    "description": "The name of its instance (instances: in the config; default for a single-instance config).",
  },
  "bySeverity": closedObject(["critical", "high", "medium", "low", "info"], {
    "critical": { "$ref": "#/definitions/count" },
    "high": { "$ref": "#/definitions/count" },
    "medium": { "$ref": "#/definitions/count" },
    "low": { "$ref": "#/definitions/count" },
    "info": { "$ref": "#/definitions/count" },
  }),
  "severity": { "enum": ["info", "low", "medium", "high", "critical"] },
  "location": closedObject(["file", "line", "column"], {
    "file": { "type": "string", "minLength": 1, "description": "Relative to the working directory, / separated." },
    "line": { "type": "integer", "minimum": 0 },
    "column": { "type": "integer", "minimum": 0 },
  }),
  "nullableLocation": { "oneOf": [{ "type": "null" }, { "$ref": "#/definitions/location" }] },
  "waiver": closedObject(["policy", "resource", "reason", "owner", "expires"], {
    "policy": { "type": "string", "minLength": 1 },
    "resource": { "type": "string", "minLength": 1 },
    "item": { "type": "string" },
    "reason": { "type": "string", "minLength": 1 },
    "owner": { "type": "string", "minLength": 1 },
    "expires": {
      "type": "string",
      "pattern": "^\\d{4}-\\d{2}-\\d{2}",
      "description": "YYYY-MM-DD; from that day on the waiver no longer applies.",
    },
    "approver": { "type": "string", "minLength": 1 },
    "ticket": { "type": "string", "minLength": 1 },
    "risk": { "enum": ["low", "medium", "high"] },
    "created": { "type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}$" },
    "instances": {
      "type": "array",
      "minItems": 1,
      "items": { "$ref": "#/definitions/instanceName" },
      "description": "The instances it applies on (absent: every instance).",
    },
    "location": { "$ref": "#/definitions/location" },
  }),
  "policy": closedObject(["id", "severity", "resource", "status", "evaluated", "violations", "error", "title", "description", "tags", "enforcement", "controls", "location", "resourceIds"], {
    "instance": { "$ref": "#/definitions/instanceName" },
    "id": { "type": "string", "minLength": 1 },
    "severity": { "$ref": "#/definitions/severity" },
    "resource": { "type": "string", "minLength": 1 },
    "status": { "enum": ["pass", "fail", "error", "skipped"] },
    "evaluated": { "$ref": "#/definitions/count" },
    "violations": { "$ref": "#/definitions/count" },
    "error": { "type": ["string", "null"] },
    "title": { "type": "string" },
    "description": { "type": "string" },
    "tags": { "type": "array", "items": { "type": "string" } },
    "enforcement": {
      "enum": ["advisory", "soft", "hard"],
      "description": "advisory: never fails the gate; soft: fails it unless overridden (see overrides); hard: always.",
    },
    "controls": {
      "type": "object",
      "description": "Control ids per framework.",
      "additionalProperties": { "type": "array", "items": { "type": "string" } },
    },
    "location": { "$ref": "#/definitions/nullableLocation" },
    "origin": {
      "$ref": "#/definitions/nullableLocation",
      "description": "Where the config brought the policy in (the steward.yaml `policies` entry, or --policies with line 0); null when nobody named it.",
    },
    "source": closedObject(["package", "version"], {
      "package": { "type": "string", "minLength": 1 },
      "version": { "type": "string", "minLength": 1 },
    }, {
      "description": "The npm package and its version that brought the policy in (a pack by name in `policies`); absent otherwise.",
    }),
    "resourceIds": { "type": "array", "items": { "type": "string" } },
  }),
};
