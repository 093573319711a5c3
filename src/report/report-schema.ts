// The JSON Schema of `steward check --format json` (DESIGN §8), published as
// schema/report.schema.json by the build. Tests check real reports of every kind against it;
// schemaVersion changes when a field is removed or changes meaning.
import { EXTRA_PROPERTIES } from './report-schema-extras.js';
import { FINDING_DEFINITIONS } from './report-schema-finding.js';
import { PART_DEFINITIONS } from './report-schema-parts.js';
import { RUN_PROPERTIES } from './report-schema-run.js';

export const REPORT_SCHEMA = {
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://steward.dev/schema/report.schema.json",
  "title": "steward report",
  "description": "The output of `steward check --format json` (DESIGN §8). schemaVersion changes when a field is removed or changes meaning.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "schemaVersion",
    "tool",
    "instance",
    "startedAt",
    "durationMs",
    "failOn",
    "summary",
    "policies",
    "findings",
    "waivers",
    "overrides",
    "frameworks",
    "baseline",
    "fixed",
    "history",
    "http"
  ],
  "properties": {
    ...RUN_PROPERTIES,
    ...EXTRA_PROPERTIES,
    "instances": {
      "type": "array",
      "minItems": 2,
      "description": "Each instance's own run when the report holds several (instances: in the config, steward merge): its name, base URL, time, verdict and counts; `instance` then lists their names, and every policy, finding, coverage record and error names its own.",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "url", "startedAt", "durationMs", "failOn", "summary", "http"],
        "properties": {
          "name": { "type": "string", "minLength": 1 },
          "url": { "type": "string" },
          "startedAt": RUN_PROPERTIES.startedAt,
          "durationMs": RUN_PROPERTIES.durationMs,
          "failOn": RUN_PROPERTIES.failOn,
          "summary": RUN_PROPERTIES.summary,
          "http": EXTRA_PROPERTIES.http,
          "stoppedBy": EXTRA_PROPERTIES.stoppedBy,
          "token": EXTRA_PROPERTIES.token,
          "history": EXTRA_PROPERTIES.history,
        },
      },
    },
  },
  "definitions": {
    ...PART_DEFINITIONS,
    ...FINDING_DEFINITIONS,
  }
};
