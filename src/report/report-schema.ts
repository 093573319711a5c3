// The JSON Schema of `steward check --format json` (DESIGN §8), published as
// schema/report.schema.json by the build. Tests check real reports of every kind against it;
// schemaVersion changes when a field is removed or changes meaning.
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
    "schemaVersion": {
      "const": 1
    },
    "tool": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name",
        "version"
      ],
      "properties": {
        "name": {
          "const": "steward"
        },
        "version": {
          "type": "string",
          "minLength": 1
        }
      }
    },
    "instance": {
      "type": "string",
      "description": "Base URL of the instance checked."
    },
    "startedAt": {
      "type": "string",
      "format": "date-time"
    },
    "durationMs": {
      "$ref": "#/definitions/count"
    },
    "failOn": {
      "enum": [
        "info",
        "low",
        "medium",
        "high",
        "critical",
        "none"
      ]
    },
    "summary": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "policies",
        "resources",
        "checks",
        "violations",
        "waived",
        "errors",
        "bySeverity",
        "gate"
      ],
      "properties": {
        "policies": {
          "$ref": "#/definitions/count"
        },
        "resources": {
          "$ref": "#/definitions/count"
        },
        "checks": {
          "$ref": "#/definitions/count"
        },
        "violations": {
          "$ref": "#/definitions/count",
          "description": "Unwaived violations."
        },
        "waived": {
          "$ref": "#/definitions/count"
        },
        "errors": {
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
        "gate": {
          "enum": [
            "pass",
            "fail",
            "error"
          ]
        }
      }
    },
    "policies": {
      "type": "array",
      "items": {
        "$ref": "#/definitions/policy"
      }
    },
    "findings": {
      "type": "array",
      "items": {
        "$ref": "#/definitions/finding"
      }
    },
    "waivers": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "expired",
        "stale",
        "catchAll",
        "active",
        "expiring"
      ],
      "properties": {
        "expired": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/waiver"
          }
        },
        "stale": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/waiver"
          }
        },
        "catchAll": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/waiver"
          }
        },
        "active": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/waiver"
          },
          "description": "Every waiver in force for the policies that ran."
        },
        "expiring": {
          "type": "array",
          "items": {
            "$ref": "#/definitions/waiver"
          },
          "description": "Active waivers ending within waiverWarningDays (default 30)."
        }
      }
    },
    "frameworks": {
      "type": "array",
      "description": "Per framework the loaded policies name (policy `controls`), per control: pass, fail, error, or not-evaluated (none of its policies ran).",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "name",
          "controls"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1
          },
          "controls": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "id",
                "status",
                "policies"
              ],
              "properties": {
                "id": {
                  "type": "string",
                  "minLength": 1
                },
                "status": {
                  "enum": [
                    "pass",
                    "fail",
                    "error",
                    "not-evaluated"
                  ]
                },
                "policies": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      }
    },
    "overrides": {
      "type": "array",
      "description": "Soft policies whose violations this run did not let fail the gate, each with the reason given.",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "policy",
          "reason"
        ],
        "properties": {
          "policy": {
            "type": "string",
            "minLength": 1
          },
          "reason": {
            "type": "string",
            "minLength": 1
          }
        }
      }
    },
    "baseline": {
      "oneOf": [
        {
          "type": "null"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "file",
            "resolved"
          ],
          "properties": {
            "file": {
              "type": "string",
              "minLength": 1
            },
            "resolved": {
              "type": "array",
              "items": {
                "type": "string"
              },
              "description": "Fingerprints in the baseline no longer seen."
            },
            "resolvedEntries": {
              "type": "array",
              "description": "The resolved entries in the same order, with what they were about when the baseline file names it (files written before entries were stored give only the fingerprint).",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "fingerprint"
                ],
                "properties": {
                  "fingerprint": {
                    "type": "string"
                  },
                  "policy": {
                    "type": "string"
                  },
                  "resource": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": [
                      "kind",
                      "id"
                    ],
                    "properties": {
                      "kind": {
                        "type": "string"
                      },
                      "id": {
                        "type": "string"
                      }
                    }
                  },
                  "path": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "message": {
                    "type": "string"
                  }
                }
              }
            }
          }
        }
      ]
    },
    "fixed": {
      "type": "array",
      "description": "Findings of the previous run gone in this one (only with a run history; else empty).",
      "items": {
        "$ref": "#/definitions/fixedFinding"
      }
    },
    "stoppedBy": {
      "description": "The failures no request of the run could escape (a refused token, an unreachable host, the deadline), once each in the order met: they stopped the run's requests; absent when none did.",
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["cause", "advice"],
        "properties": { "cause": { "type": "string", "minLength": 1 }, "advice": { "type": "string", "minLength": 1 } }
      }
    },
    "filters": {
      "type": "object",
      "additionalProperties": false,
      "required": ["skip", "severity"],
      "description": "What the run left out on request: --skip globs, and --severity (the severities reported; null: all). Absent without either.",
      "properties": {
        "skip": { "type": "array", "items": { "type": "string" } },
        "severity": { "oneOf": [{ "type": "null" }, { "type": "array", "items": { "$ref": "#/definitions/severity" } }] }
      }
    },
    "token": {
      "description": "The token in use (instance.tokenId) about to expire, expired, or not found; absent or null when there is nothing to say.",
      "oneOf": [
        {
          "type": "null"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "id",
            "expires",
            "daysLeft",
            "note"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "expires": {
              "type": [
                "string",
                "null"
              ]
            },
            "daysLeft": {
              "type": [
                "integer",
                "null"
              ]
            },
            "note": {
              "type": "string"
            }
          }
        }
      ]
    },
    "coverage": {
      "type": "array",
      "description": "What the run saw of each kind it read: resources listed, the grant without which the listing holds only what the token's user can see, why it is known to be partial (null: not known to be), whether the config accepts that, and whether it made the run exit 3.",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "kind",
          "listed",
          "evaluated",
          "skippedPolicies",
          "completeWith",
          "partial",
          "accepted",
          "blocking"
        ],
        "properties": {
          "kind": {
            "type": "string",
            "minLength": 1
          },
          "listed": {
            "type": "integer",
            "minimum": 0,
            "description": "resources collected; a listing is never cut short (an incomplete one is an error, exit 3)"
          },
          "evaluated": {
            "type": "integer",
            "minimum": 0,
            "description": "resources at least one policy judged"
          },
          "skippedPolicies": {
            "type": "integer",
            "minimum": 0,
            "description": "policies over the kind that checked nothing"
          },
          "completeWith": {
            "type": [
              "string",
              "null"
            ]
          },
          "partial": {
            "type": [
              "string",
              "null"
            ]
          },
          "accepted": {
            "type": "boolean"
          },
          "blocking": {
            "type": "boolean"
          }
        }
      }
    },
    "history": {
      "description": "What the run history said about this run; null without one.",
      "oneOf": [
        {
          "type": "null"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "file",
            "run",
            "new",
            "open",
            "reopened",
            "fixed",
            "trend"
          ],
          "properties": {
            "file": {
              "type": "string",
              "minLength": 1
            },
            "run": {
              "type": "integer",
              "minimum": 1
            },
            "new": {
              "$ref": "#/definitions/count"
            },
            "open": {
              "$ref": "#/definitions/count"
            },
            "reopened": {
              "$ref": "#/definitions/count"
            },
            "fixed": {
              "$ref": "#/definitions/count"
            },
            "trend": {
              "type": "array",
              "description": "The last runs of this instance, oldest first, this one last.",
              "items": {
                "$ref": "#/definitions/historyPoint"
              }
            }
          }
        }
      ]
    },
    "http": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "requests",
        "retries",
        "failed"
      ],
      "properties": {
        "requests": {
          "$ref": "#/definitions/count"
        },
        "retries": {
          "$ref": "#/definitions/count"
        },
        "failed": {
          "$ref": "#/definitions/count"
        },
        "throttled": {
          "$ref": "#/definitions/count",
          "description": "429 answers, present when the host throttled the run"
        },
        "lowestConcurrency": {
          "type": "integer",
          "minimum": 1,
          "description": "the lowest concurrency the run was cut to after 429s"
        },
        "ratePerSecond": {
          "type": "number",
          "minimum": 0,
          "description": "requests per second the run achieved"
        }
      }
    }
  },
  "definitions": {
    "count": {
      "type": "integer",
      "minimum": 0
    },
    "severity": {
      "enum": [
        "info",
        "low",
        "medium",
        "high",
        "critical"
      ]
    },
    "location": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "file",
        "line",
        "column"
      ],
      "properties": {
        "file": {
          "type": "string",
          "minLength": 1,
          "description": "Relative to the working directory, / separated."
        },
        "line": {
          "type": "integer",
          "minimum": 0
        },
        "column": {
          "type": "integer",
          "minimum": 0
        }
      }
    },
    "nullableLocation": {
      "oneOf": [
        {
          "type": "null"
        },
        {
          "$ref": "#/definitions/location"
        }
      ]
    },
    "waiver": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "policy",
        "resource",
        "reason",
        "owner",
        "expires"
      ],
      "properties": {
        "policy": {
          "type": "string",
          "minLength": 1
        },
        "resource": {
          "type": "string",
          "minLength": 1
        },
        "item": {
          "type": "string"
        },
        "reason": {
          "type": "string",
          "minLength": 1
        },
        "owner": {
          "type": "string",
          "minLength": 1
        },
        "expires": {
          "type": "string",
          "pattern": "^\\d{4}-\\d{2}-\\d{2}",
          "description": "YYYY-MM-DD; from that day on the waiver no longer applies."
        },
        "approver": {
          "type": "string",
          "minLength": 1
        },
        "ticket": {
          "type": "string",
          "minLength": 1
        },
        "risk": {
          "enum": [
            "low",
            "medium",
            "high"
          ]
        },
        "created": {
          "type": "string",
          "pattern": "^\\d{4}-\\d{2}-\\d{2}$"
        },
        "location": {
          "$ref": "#/definitions/location"
        }
      }
    },
    "policy": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "id",
        "severity",
        "resource",
        "status",
        "evaluated",
        "violations",
        "error",
        "title",
        "description",
        "tags",
        "enforcement",
        "controls",
        "location",
        "resourceIds"
      ],
      "properties": {
        "id": {
          "type": "string",
          "minLength": 1
        },
        "severity": {
          "$ref": "#/definitions/severity"
        },
        "resource": {
          "type": "string",
          "minLength": 1
        },
        "status": {
          "enum": [
            "pass",
            "fail",
            "error",
            "skipped"
          ]
        },
        "evaluated": {
          "$ref": "#/definitions/count"
        },
        "violations": {
          "$ref": "#/definitions/count"
        },
        "error": {
          "type": [
            "string",
            "null"
          ]
        },
        "title": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "tags": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "enforcement": {
          "enum": [
            "advisory",
            "soft",
            "hard"
          ],
          "description": "advisory: never fails the gate; soft: fails it unless overridden (see overrides); hard: always."
        },
        "controls": {
          "type": "object",
          "description": "Control ids per framework.",
          "additionalProperties": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "location": {
          "$ref": "#/definitions/nullableLocation"
        },
        "origin": {
          "$ref": "#/definitions/nullableLocation",
          "description": "Where the config brought the policy in (the steward.yaml `policies` entry, or --policies with line 0); null when nobody named it."
        },
        "source": {
          "type": "object",
          "additionalProperties": false,
          "required": ["package", "version"],
          "description": "The npm package and its version that brought the policy in (a pack by name in `policies`); absent otherwise.",
          "properties": { "package": { "type": "string", "minLength": 1 }, "version": { "type": "string", "minLength": 1 } }
        },
        "resourceIds": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      }
    },
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
  }
};
