// The report's run-level properties: the tool, the instance, the summary, policies, findings, waivers, frameworks, overrides.
// Part of REPORT_SCHEMA (report-schema.ts), published as schema/report.schema.json.
import { closedObject } from '../core/schema-id.js';

export const RUN_PROPERTIES = {
  "schemaVersion": { "const": 1 },
  "tool": closedObject(["name", "version"], { "name": { "const": "steward" }, "version": { "type": "string", "minLength": 1 } }),
  "instance": { "type": "string", "description": "Base URL of the instance checked." },
  "startedAt": { "type": "string", "format": "date-time" },
  "durationMs": { "$ref": "#/definitions/count" },
  "failOn": { "enum": ["info", "low", "medium", "high", "critical", "none"] },
  "summary": closedObject(["policies", "resources", "checks", "violations", "waived", "errors", "bySeverity", "gate"], {
    "policies": { "$ref": "#/definitions/count" },
    "resources": { "$ref": "#/definitions/count" },
    "checks": { "$ref": "#/definitions/count" },
    "violations": { "$ref": "#/definitions/count", "description": "Unwaived violations." },
    "waived": { "$ref": "#/definitions/count" },
    "errors": { "$ref": "#/definitions/count" },
    "bySeverity": { "$ref": "#/definitions/bySeverity" },
    "gate": { "enum": ["pass", "fail", "error"] },
  }),
  "policies": { "type": "array", "items": { "$ref": "#/definitions/policy" } },
  "findings": { "type": "array", "items": { "$ref": "#/definitions/finding" } },
  "waivers": closedObject(["expired", "stale", "catchAll", "active", "expiring"], {
    "expired": { "type": "array", "items": { "$ref": "#/definitions/waiver" } },
    "stale": { "type": "array", "items": { "$ref": "#/definitions/waiver" } },
    "catchAll": { "type": "array", "items": { "$ref": "#/definitions/waiver" } },
    "active": {
      "type": "array",
      "items": { "$ref": "#/definitions/waiver" },
      "description": "Every waiver in force for the policies that ran.",
    },
    "expiring": {
      "type": "array",
      "items": { "$ref": "#/definitions/waiver" },
      "description": "Active waivers ending within waiverWarningDays (default 30).",
    },
  }),
  "frameworks": {
    "type": "array",
    "description": "Per framework the loaded policies name (policy `controls`), per control: pass, fail, error, or not-evaluated (none of its policies ran).",
    "items": closedObject(["name", "controls"], {
      "name": { "type": "string", "minLength": 1 },
      "controls": {
        "type": "array",
        "items": closedObject(["id", "status", "policies"], {
          "id": { "type": "string", "minLength": 1 },
          "status": { "enum": ["pass", "fail", "error", "not-evaluated"] },
          "policies": { "type": "array", "items": { "type": "string" } },
        }),
      },
    }),
  },
  "overrides": {
    "type": "array",
    "description": "Soft policies whose violations this run did not let fail the gate, each with the reason given.",
    "items": closedObject(["policy", "reason"], {
      "policy": { "type": "string", "minLength": 1 },
      "reason": { "type": "string", "minLength": 1 },
    }),
  },
};
