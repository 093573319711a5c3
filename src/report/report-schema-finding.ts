// Definitions of a finding, its resource, a fixed finding and a history trend point.
// Part of REPORT_SCHEMA (report-schema.ts), published as schema/report.schema.json.
export const FINDING_DEFINITIONS = {
    "finding": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "policy",
        "severity",
        "status",
        "resource",
        "path",
        "message",
        "location",
        "fingerprint",
        "baseline",
        "fix",
        "waiver",
        "lifecycle",
        "firstSeen"
      ],
      "properties": {
        "policy": {
          "type": "string",
          "minLength": 1
        },
        "severity": {
          "$ref": "#/definitions/severity"
        },
        "status": {
          "enum": [
            "violation",
            "waived",
            "error"
          ]
        },
        "resource": {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "kind",
            "id",
            "name"
          ],
          "properties": {
            "kind": {
              "type": "string",
              "minLength": 1
            },
            "id": {
              "type": "string",
              "minLength": 1
            },
            "name": {
              "type": [
                "string",
                "null"
              ]
            },
            "owner": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "type",
                "id",
                "name",
                "email",
                "state"
              ],
              "description": "The resource's owner resolved against the user listing, when the run read it (a policy read `owner`): state active, pending, deactivated, deleted, unknown (in no listing), or null for a group.",
              "properties": {
                "type": {
                  "enum": [
                    "USER",
                    "GROUP"
                  ]
                },
                "id": {
                  "type": "string"
                },
                "name": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "email": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "state": {
                  "enum": [
                    "active",
                    "pending",
                    "deactivated",
                    "deleted",
                    "unknown",
                    null
                  ]
                }
              }
            }
          }
        },
        "path": {
          "type": [
            "string",
            "null"
          ]
        },
        "item": {
          "type": [
            "string",
            "null"
          ],
          "description": "Key of the offending `each` item (its id, else its index) that waivers match; null for the whole resource."
        },
        "message": {
          "type": "string"
        },
        "location": {
          "$ref": "#/definitions/nullableLocation"
        },
        "fingerprint": {
          "type": "string",
          "minLength": 1
        },
        "baseline": {
          "enum": [
            "new",
            "known",
            null
          ]
        },
        "fix": {
          "type": [
            "object",
            "null"
          ],
          "description": "The change a fix would make, as planned (steward fix); null in check."
        },
        "waiver": {
          "oneOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/definitions/waiver"
            }
          ]
        },
        "lifecycle": {
          "enum": [
            "new",
            "open",
            "reopened",
            null
          ],
          "description": "Against the run history: new (never seen), open (in the previous run that evaluated its policy), reopened (seen, gone, back); null without a history and for errors."
        },
        "firstSeen": {
          "type": [
            "string",
            "null"
          ],
          "format": "date-time",
          "description": "When the history first saw this fingerprint; null without a history and for errors."
        },
        "runWide": {
          "const": true,
          "description": "Only on an error: its cause stopped the whole run (stoppedBy), where it is reported once."
        }
      },
      "if": {
        "properties": {
          "status": {
            "const": "waived"
          }
        }
      },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
      "then": {
        "properties": {
          "waiver": {
            "$ref": "#/definitions/waiver"
          }
        }
      }
    },
    "resource": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "kind",
        "id",
        "name"
      ],
      "properties": {
        "kind": {
          "type": "string",
          "minLength": 1
        },
        "id": {
          "type": "string",
          "minLength": 1
        },
        "name": {
          "type": [
            "string",
            "null"
          ]
        }
      }
    },
    "fixedFinding": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "policy",
        "severity",
        "resource",
        "fingerprint",
        "message",
        "firstSeen",
        "fixedAt"
      ],
      "properties": {
        "policy": {
          "type": "string",
          "minLength": 1
        },
        "severity": {
          "$ref": "#/definitions/severity"
        },
        "resource": {
          "$ref": "#/definitions/resource"
        },
        "fingerprint": {
          "type": "string",
          "minLength": 1
        },
        "message": {
          "type": "string"
        },
        "firstSeen": {
          "type": "string",
          "format": "date-time"
        },
        "fixedAt": {
          "type": "string",
          "format": "date-time"
        }
      }
    },
    "historyPoint": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "run",
        "startedAt",
        "gate",
        "violations",
        "bySeverity",
        "new",
        "reopened",
        "fixed"
      ],
      "properties": {
        "run": {
          "type": "integer",
          "minimum": 1
        },
        "startedAt": {
          "type": "string",
          "format": "date-time"
        },
        "gate": {
          "enum": [
            "pass",
            "fail",
            "error"
          ]
        },
        "violations": {
          "$ref": "#/definitions/count"
        },
        "bySeverity": {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "critical",
            "high",
            "medium",
            "low",
            "info"
          ],
          "properties": {
            "critical": {
              "$ref": "#/definitions/count"
            },
            "high": {
              "$ref": "#/definitions/count"
            },
            "medium": {
              "$ref": "#/definitions/count"
            },
            "low": {
              "$ref": "#/definitions/count"
            },
            "info": {
              "$ref": "#/definitions/count"
            }
          }
        },
        "new": {
          "$ref": "#/definitions/count"
        },
        "reopened": {
          "$ref": "#/definitions/count"
        },
        "fixed": {
          "$ref": "#/definitions/count"
        }
      }
    }
};
