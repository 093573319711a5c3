// The report's optional sections: baseline, fixed findings, the run-wide stop, filters, the token, coverage, history, HTTP counts.
// Part of REPORT_SCHEMA (report-schema.ts), published as schema/report.schema.json.
import { closedObject } from '../core/schema-id.js';

export const EXTRA_PROPERTIES = {
  "baseline": {
    "oneOf": [
      { "type": "null" },
      closedObject(["file", "resolved"], {
        "file": { "type": "string", "minLength": 1 },
        "resolved": { "type": "array", "items": { "type": "string" }, "description": "Fingerprints in the baseline no longer seen." },
        "resolvedEntries": {
          "type": "array",
          "description": "The resolved entries in the same order, with what they were about when the baseline file names it (files written before entries were stored give only the fingerprint).",
          "items": closedObject(["fingerprint"], {
            "fingerprint": { "type": "string" },
            "instance": { "type": "string", "description": "the instance it was recorded on" },
            "policy": { "type": "string" },
            "resource": closedObject(["kind", "id"], { "kind": { "type": "string" }, "id": { "type": "string" } }),
            "path": { "type": ["string", "null"] },
            "message": { "type": "string" },
          }),
        },
      }),
    ],
  },
  "fixed": {
    "type": "array",
    "description": "Findings of the previous run gone in this one (only with a run history; else empty).",
    "items": { "$ref": "#/definitions/fixedFinding" },
  },
  "notifications": {
    "type": "array",
    "description": "Each notify: channel of the run and what became of its digest; absent without notify:.",
    "items": closedObject(["type", "destination", "sent", "attempts", "status", "items", "error"], {
      "type": { "enum": ["slack", "teams", "webhook"] },
      "destination": { "type": "string", "pattern": "^env:", "description": "the variable holding the URL, never the URL" },
      "sent": { "type": "boolean" },
      "attempts": { "type": "integer", "minimum": 0 },
      "status": { "type": ["integer", "null"] },
      "items": { "type": "integer", "minimum": 0, "description": "changes the message lists (NOTIFY_MAX_ITEMS at most), counted whether or not it was sent: `sent` and `error` say whether it was" },
      "error": { "type": ["string", "null"] },
    }),
  },
  "stoppedBy": {
    "description": "The failures no request of the run could escape (a refused token, an unreachable host, the deadline), once each in the order met: they stopped the run's requests; absent when none did.",
    "type": "array",
    "minItems": 1,
    "items": closedObject(["cause", "advice"], {
      "cause": { "type": "string", "minLength": 1 },
      "advice": { "type": "string", "minLength": 1 },
    }),
  },
  "filters": closedObject(["skip", "severity"], {
    "skip": { "type": "array", "items": { "type": "string" } },
    "severity": { "oneOf": [{ "type": "null" }, { "type": "array", "items": { "$ref": "#/definitions/severity" } }] },
  }, {
    "description": "What the run left out on request: --skip globs, and --severity (the severities reported; null: all). Absent without either.",
  }),
  "token": {
    "description": "The token in use (instance.tokenId) about to expire, expired, or not found; absent or null when there is nothing to say.",
    "oneOf": [
      { "type": "null" },
      closedObject(["id", "expires", "daysLeft", "note"], {
        "id": { "type": "string" },
        "expires": { "type": ["string", "null"] },
        "daysLeft": { "type": ["integer", "null"] },
        "note": { "type": "string" },
      }),
    ],
  },
  "coverage": {
    "type": "array",
    "description": "What the run saw of each kind it read: resources listed, the grant without which the listing holds only what the token's user can see, why it is known to be partial (null: not known to be), whether the config accepts that, and whether it made the run exit 3.",
    "items": closedObject(["kind", "listed", "evaluated", "skippedPolicies", "completeWith", "partial", "accepted", "blocking"], {
      "instance": { "$ref": "#/definitions/instanceName" },
      "kind": { "type": "string", "minLength": 1 },
      "listed": {
        "type": "integer",
        "minimum": 0,
        "description": "resources collected; a listing is never cut short (an incomplete one is an error, exit 3)",
      },
      "evaluated": { "type": "integer", "minimum": 0, "description": "resources at least one policy judged" },
      "skippedPolicies": { "type": "integer", "minimum": 0, "description": "policies over the kind that checked nothing" },
      "completeWith": { "type": ["string", "null"] },
      "partial": { "type": ["string", "null"] },
      "accepted": { "type": "boolean" },
      "blocking": { "type": "boolean" },
    }),
  },
  "history": {
    "description": "What the run history said about this run; null without one.",
    "oneOf": [
      { "type": "null" },
      closedObject(["file", "run", "new", "open", "reopened", "fixed", "trend"], {
        "file": { "type": "string", "minLength": 1 },
        "run": { "type": "integer", "minimum": 1 },
        "new": { "$ref": "#/definitions/count" },
        "open": { "$ref": "#/definitions/count" },
        "reopened": { "$ref": "#/definitions/count" },
        "fixed": { "$ref": "#/definitions/count" },
        "trend": {
          "type": "array",
          "description": "The last runs of this instance, oldest first, this one last.",
          "items": { "$ref": "#/definitions/historyPoint" },
        },
      }),
    ],
  },
  "http": closedObject(["requests", "retries", "failed"], {
    "requests": { "$ref": "#/definitions/count" },
    "retries": { "$ref": "#/definitions/count" },
    "failed": { "$ref": "#/definitions/count" },
    "throttled": { "$ref": "#/definitions/count", "description": "429 answers, present when the host throttled the run" },
    "lowestConcurrency": { "type": "integer", "minimum": 1, "description": "the lowest concurrency the run was cut to after 429s" },
    "ratePerSecond": { "type": "number", "minimum": 0, "description": "requests per second the run achieved" },
  }),
};
