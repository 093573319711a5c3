// The report's run-level properties: the tool, the instance, the summary, policies, findings, waivers, frameworks, overrides.
// Part of REPORT_SCHEMA (report-schema.ts), published as schema/report.schema.json.
export const RUN_PROPERTIES = {
  "schemaVersion": { "const": 1 },
  "tool": {
    "type": "object",
    "additionalProperties": false,
    "required": ["name", "version"],
    "properties": { "name": { "const": "steward" }, "version": { "type": "string", "minLength": 1 } },
  },
  "instance": { "type": "string", "description": "Base URL of the instance checked." },
  "startedAt": { "type": "string", "format": "date-time" },
  "durationMs": { "$ref": "#/definitions/count" },
  "failOn": { "enum": ["info", "low", "medium", "high", "critical", "none"] },
  "summary": {
    "type": "object",
    "additionalProperties": false,
    "required": ["policies", "resources", "checks", "violations", "waived", "errors", "bySeverity", "gate"],
    "properties": {
      "policies": { "$ref": "#/definitions/count" },
      "resources": { "$ref": "#/definitions/count" },
      "checks": { "$ref": "#/definitions/count" },
      "violations": { "$ref": "#/definitions/count", "description": "Unwaived violations." },
      "waived": { "$ref": "#/definitions/count" },
      "errors": { "$ref": "#/definitions/count" },
      "bySeverity": { "$ref": "#/definitions/bySeverity" },
      "gate": { "enum": ["pass", "fail", "error"] },
    },
  },
  "policies": { "type": "array", "items": { "$ref": "#/definitions/policy" } },
  "findings": { "type": "array", "items": { "$ref": "#/definitions/finding" } },
  "waivers": {
    "type": "object",
    "additionalProperties": false,
    "required": ["expired", "stale", "catchAll", "active", "expiring"],
    "properties": {
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
    },
  },
  "frameworks": {
    "type": "array",
    "description": "Per framework the loaded policies name (policy `controls`), per control: pass, fail, error, or not-evaluated (none of its policies ran).",
    "items": {
      "type": "object",
      "additionalProperties": false,
      "required": ["name", "controls"],
      "properties": {
        "name": { "type": "string", "minLength": 1 },
        "controls": {
          "type": "array",
          "items": {
            "type": "object",
            "additionalProperties": false,
            "required": ["id", "status", "policies"],
            "properties": {
              "id": { "type": "string", "minLength": 1 },
              "status": { "enum": ["pass", "fail", "error", "not-evaluated"] },
              "policies": { "type": "array", "items": { "type": "string" } },
            },
          },
        },
      },
    },
  },
  "overrides": {
    "type": "array",
    "description": "Soft policies whose violations this run did not let fail the gate, each with the reason given.",
    "items": {
      "type": "object",
      "additionalProperties": false,
      "required": ["policy", "reason"],
      "properties": { "policy": { "type": "string", "minLength": 1 }, "reason": { "type": "string", "minLength": 1 } },
    },
  },
};
