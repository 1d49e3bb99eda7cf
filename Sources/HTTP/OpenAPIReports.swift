import Foundation

/// The reports' part of the OpenAPI document (docs/REPORTS.md): merged into `OpenAPIDocument`.
enum OpenAPIReports {
    static let fragment = #"""
        {
          "paths": {
            "/v1/reports/hours": {
              "get": {
                "summary": "On-duty hours per person over a window, in disjoint categories that add up (admins; a person's token: their own).",
                "security": [{ "token": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/reportFrom" },
                  { "$ref": "#/components/parameters/reportTo" },
                  { "$ref": "#/components/parameters/schedule" },
                  { "name": "person", "in": "query", "required": false, "description": "Only this person (id or full name).", "schema": { "type": "string" } },
                  { "name": "zone", "in": "query", "required": false, "description": "IANA zone the categories are counted in (default: the schedules').", "schema": { "type": "string" } },
                  { "name": "business_hours", "in": "query", "required": false, "description": "HH:MM-HH:MM on workdays (default 09:00-18:00).", "schema": { "type": "string" } },
                  { "name": "workdays", "in": "query", "required": false, "description": "Days such as Mon-Fri (the default) or Mon,Tue,Thu.", "schema": { "type": "string" } },
                  { "name": "night", "in": "query", "required": false, "description": "A night window HH:MM-HH:MM (default: none).", "schema": { "type": "string" } },
                  { "name": "holidays", "in": "query", "required": false, "description": "Local dates YYYY-MM-DD, comma-separated (at most 1000).", "schema": { "type": "string" } },
                  { "$ref": "#/components/parameters/reportFormat" }
                ],
                "responses": {
                  "200": {
                    "description": "The hours (JSON), or one CSV row per person.",
                    "content": {
                      "application/json": { "schema": { "$ref": "#/components/schemas/HoursReport" } },
                      "text/csv": { "schema": { "type": "string" } }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "403": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/reports/quality": {
              "get": {
                "summary": "A schedule's coverage with its gaps, balance and equity; or an escalation policy's steps (admins).",
                "security": [{ "token": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/reportFrom" },
                  { "$ref": "#/components/parameters/reportTo" },
                  { "name": "schedule", "in": "query", "required": false, "description": "The schedule's id or name (this or `policy`).", "schema": { "type": "string" } },
                  { "name": "policy", "in": "query", "required": false, "description": "An escalation policy's id or name, instead of a schedule.", "schema": { "type": "string" } },
                  { "$ref": "#/components/parameters/reportFormat" }
                ],
                "responses": {
                  "200": {
                    "description": "The quality (JSON), or CSV: people, then the gaps (a policy's: its steps, then the uncovered stretches).",
                    "content": {
                      "application/json": { "schema": { "oneOf": [{ "$ref": "#/components/schemas/QualityReport" }, { "$ref": "#/components/schemas/PolicyQualityReport" }] } },
                      "text/csv": { "schema": { "type": "string" } }
                    }
                  },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "403": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            }
          },
          "parameters": {
            "reportFrom": {
              "name": "from", "in": "query", "required": true,
              "description": "Start of the window, an ISO 8601 instant.", "schema": { "type": "string", "format": "date-time" }
            },
            "reportTo": {
              "name": "to", "in": "query", "required": false,
              "description": "End of the window (default: now; at most 400 days after from).", "schema": { "type": "string", "format": "date-time" }
            },
            "reportFormat": {
              "name": "format", "in": "query", "required": false, "schema": { "type": "string", "enum": ["json", "csv"] }
            }
          },
          "schemas": {
            "Hours": { "type": "string", "pattern": "^-?[0-9]+\\.[0-9]{2}$", "description": "Hours with two decimals." },
            "Categories": {
              "type": "object",
              "required": ["business", "outside_business_hours", "night", "weekend", "holiday"],
              "properties": {
                "business": {}, "outside_business_hours": {}, "night": {}, "weekend": {}, "holiday": {}
              }
            },
            "HoursReport": {
              "type": "object",
              "required": ["from", "to", "now", "zone", "people"],
              "properties": {
                "from": { "type": "string", "format": "date-time" },
                "to": { "type": "string", "format": "date-time" },
                "now": { "type": "string", "format": "date-time", "description": "Before it, what happened (the duty record); after it, the plan." },
                "zone": { "type": "string" },
                "recorded_since": { "type": "string", "format": "date-time", "description": "The duty record begins here: the past before it is resolved from today's definitions." },
                "people": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": ["employee_id", "name", "total_hours", "total_ms", "categories", "categories_ms", "override_hours", "cover_taken_hours",
                                 "cover_given_hours", "out_of_hours_periods", "stretches", "longest_stretch_hours", "schedules"],
                    "properties": {
                      "employee_id": { "type": "string" },
                      "name": { "type": "string" },
                      "total_hours": { "$ref": "#/components/schemas/Hours" },
                      "total_ms": { "type": "integer", "minimum": 0 },
                      "categories": { "$ref": "#/components/schemas/Categories" },
                      "categories_ms": { "$ref": "#/components/schemas/Categories" },
                      "override_hours": { "$ref": "#/components/schemas/Hours" },
                      "cover_taken_hours": { "$ref": "#/components/schemas/Hours" },
                      "cover_given_hours": { "$ref": "#/components/schemas/Hours" },
                      "out_of_hours_periods": { "type": "integer", "minimum": 0 },
                      "stretches": { "type": "integer", "minimum": 0 },
                      "longest_stretch_hours": { "$ref": "#/components/schemas/Hours" },
                      "shortest_rest_hours": { "$ref": "#/components/schemas/Hours" },
                      "schedules": {
                        "type": "array",
                        "items": {
                          "type": "object",
                          "required": ["id", "name", "hours", "ms"],
                          "properties": {
                            "id": { "type": "string" }, "name": { "type": "string" },
                            "hours": { "$ref": "#/components/schemas/Hours" }, "ms": { "type": "integer", "minimum": 0 }
                          }
                        }
                      }
                    }
                  }
                }
              }
            },
            "PolicyQualityReport": {
              "type": "object",
              "required": ["from", "to", "now", "zone", "policy_id", "policy_name", "steps", "uncovered", "uncovered_omitted", "uncovered_hours"],
              "properties": {
                "from": { "type": "string", "format": "date-time" },
                "to": { "type": "string", "format": "date-time" },
                "now": { "type": "string", "format": "date-time" },
                "zone": { "type": "string" },
                "recorded_since": { "type": "string", "format": "date-time" },
                "policy_id": { "type": "string" },
                "policy_name": { "type": "string" },
                "steps": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": ["level", "coverage_percent", "covered_hours", "gaps", "gaps_omitted"],
                    "properties": {
                      "level": { "type": "integer", "minimum": 1 },
                      "coverage_percent": { "type": "number", "minimum": 0, "maximum": 100 },
                      "covered_hours": { "$ref": "#/components/schemas/Hours" },
                      "gaps": { "type": "array", "items": { "$ref": "#/components/schemas/ReportSpan" } },
                      "gaps_omitted": { "type": "integer", "minimum": 0 },
                      "only_person": {
                        "type": "object", "required": ["employee_id", "name"],
                        "properties": { "employee_id": { "type": "string" }, "name": { "type": "string" } }
                      }
                    }
                  }
                },
                "uncovered": { "type": "array", "items": { "$ref": "#/components/schemas/ReportSpan" } },
                "uncovered_omitted": { "type": "integer", "minimum": 0 },
                "uncovered_hours": {
                  "type": "object",
                  "required": ["business", "outside_business_hours", "night", "weekend", "holiday"],
                  "additionalProperties": { "$ref": "#/components/schemas/Hours" }
                }
              }
            },
            "ReportSpan": {
              "type": "object",
              "required": ["start", "end", "hours"],
              "properties": {
                "start": { "type": "string", "format": "date-time" }, "end": { "type": "string", "format": "date-time" },
                "hours": { "$ref": "#/components/schemas/Hours" }
              }
            },
            "QualityReport": {
              "type": "object",
              "required": ["from", "to", "now", "schedule_id", "schedule_name", "coverage_percent", "covered_hours", "gaps", "gaps_omitted",
                           "balance", "equity", "mean_hours", "people"],
              "properties": {
                "from": { "type": "string", "format": "date-time" },
                "to": { "type": "string", "format": "date-time" },
                "now": { "type": "string", "format": "date-time" },
                "recorded_since": { "type": "string", "format": "date-time" },
                "schedule_id": { "type": "string" },
                "schedule_name": { "type": "string" },
                "coverage_percent": { "type": "number", "minimum": 0, "maximum": 100 },
                "covered_hours": { "$ref": "#/components/schemas/Hours" },
                "gaps": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": ["start", "end", "hours"],
                    "properties": {
                      "start": { "type": "string", "format": "date-time" }, "end": { "type": "string", "format": "date-time" },
                      "hours": { "$ref": "#/components/schemas/Hours" }
                    }
                  }
                },
                "gaps_omitted": { "type": "integer", "minimum": 0 },
                "balance": { "type": "number", "minimum": 0, "maximum": 100 },
                "equity": { "type": "number", "minimum": 0, "maximum": 100 },
                "mean_hours": { "$ref": "#/components/schemas/Hours" },
                "people": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": ["employee_id", "name", "hours", "above_mean_hours"],
                    "properties": {
                      "employee_id": { "type": "string" }, "name": { "type": "string" },
                      "hours": { "$ref": "#/components/schemas/Hours" }, "above_mean_hours": { "$ref": "#/components/schemas/Hours" }
                    }
                  }
                }
              }
            }
          }
        }
        """#

    /// `base` with the fragment's paths, parameters and schemas added.
    /// `base` with a fragment's paths, parameters and schemas added.
    static func merged(_ fragmentText: String = fragment, into base: String) -> String {
        guard var document = (try? JSONSerialization.jsonObject(with: Data(base.utf8))) as? [String: Any],
            let fragment = (try? JSONSerialization.jsonObject(with: Data(fragmentText.utf8))) as? [String: Any],
            var components = document["components"] as? [String: Any]
        else { return base }
        document["paths"] = (document["paths"] as? [String: Any] ?? [:]).merging(
            fragment["paths"] as? [String: Any] ?? [:]
        ) { a, _ in a }
        for key in ["parameters", "schemas"] {
            components[key] = (components[key] as? [String: Any] ?? [:]).merging(fragment[key] as? [String: Any] ?? [:])
            { a, _ in a }
        }
        document["components"] = components
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return base }
        return String(decoding: data, as: UTF8.self)
    }
}
