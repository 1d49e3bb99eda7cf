/// The HTTP API described for other programs: OpenAPI 3.1, served at `GET /v1/openapi.json`
/// (docs/HTTP.md). CI checks the running server against it with schemathesis (.ci/openapi-check),
/// so a route, a status or a field that drifts from it fails the run.
enum OpenAPIDocument {
    /// The whole document: the routes below, the reports' (`OpenAPIReports`) and chat's (`OpenAPIChat`).
    static let json = OpenAPIReports.merged(
        OpenAPIEscalation.fragment,
        into: OpenAPIReports.merged(OpenAPIChat.fragment, into: OpenAPIReports.merged(into: base)))

    static let base = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Roster HTTP API",
            "version": "1",
            "description": "Health, metrics, who is on call as JSON, calendar feeds and the event stream of roster-server's HTTP listener (docs/HTTP.md). The JSON answers are the protocol's own (docs/PROTOCOL.md), at the same instant."
          },
          "components": {
            "securitySchemes": {
              "token": { "type": "http", "scheme": "bearer", "description": "A reader or admin token (rst_…), from roster-server token create." }
            },
            "schemas": {
              "Problem": {
                "type": "object",
                "description": "An RFC 9457 problem.",
                "required": ["type", "title", "status", "detail"],
                "properties": {
                  "type": { "type": "string" },
                  "title": { "type": "string" },
                  "status": { "type": "integer" },
                  "detail": { "type": "string" }
                }
              },
              "CoverRequest": {
                "type": "object",
                "required": ["id", "schedule", "scheduleId", "state", "requester", "requesterId", "start", "end", "addressedTo", "note", "declinedBy"],
                "properties": {
                  "id": { "type": "string" },
                  "schedule": { "type": "string" },
                  "scheduleId": { "type": "string" },
                  "state": { "type": "string", "enum": ["open", "taken", "cancelled", "expired"] },
                  "requester": { "type": "string" },
                  "requesterId": { "type": "string" },
                  "start": { "type": "string", "format": "date-time" },
                  "end": { "type": "string", "format": "date-time" },
                  "addressedTo": { "type": "array", "items": { "type": "string" }, "description": "Empty: everyone the schedule names." },
                  "note": { "type": "string" },
                  "taker": { "type": "string" },
                  "takerId": { "type": "string" },
                  "overrideId": { "type": "string" },
                  "declinedBy": { "type": "array", "items": { "type": "string" } }
                }
              },
              "CoverRequests": {
                "type": "object",
                "required": ["revision", "at", "requests"],
                "properties": {
                  "revision": { "type": "integer" },
                  "at": { "type": "string", "format": "date-time" },
                  "requests": { "type": "array", "items": { "$ref": "#/components/schemas/CoverRequest" } }
                }
              },
              "CoverRequestStep": {
                "type": "object",
                "required": ["revision", "request"],
                "properties": {
                  "revision": { "type": "integer" },
                  "request": { "$ref": "#/components/schemas/CoverRequest" }
                }
              },
              "Person": {
                "type": "object",
                "required": ["id", "name", "email", "phone", "shiftStart", "shiftEnd"],
                "properties": {
                  "id": { "type": "string" },
                  "name": { "type": "string" },
                  "email": { "type": "string" },
                  "phone": { "type": "string" },
                  "role": { "type": "string", "description": "Absent when the shift names no role." },
                  "shiftStart": { "type": "string", "format": "date-time" },
                  "shiftEnd": { "type": "string", "format": "date-time" }
                }
              },
              "Schedule": {
                "type": "object",
                "required": ["id", "name", "timeZone", "onDuty", "next"],
                "properties": {
                  "id": { "type": "string" },
                  "name": { "type": "string" },
                  "timeZone": { "type": "string" },
                  "onDuty": { "type": "array", "items": { "$ref": "#/components/schemas/Person" } },
                  "until": { "type": "string", "format": "date-time", "description": "When onDuty next changes; absent when nothing is planned." },
                  "next": { "type": "array", "items": { "$ref": "#/components/schemas/Person" } }
                }
              },
              "Now": {
                "type": "object",
                "required": ["tenant", "at", "revision", "epoch", "schedules"],
                "properties": {
                  "tenant": { "type": "string" },
                  "at": { "type": "string", "format": "date-time" },
                  "revision": { "type": "integer", "minimum": 0 },
                  "epoch": { "type": "string" },
                  "schedules": { "type": "array", "items": { "$ref": "#/components/schemas/Schedule" } }
                }
              },
              "Shift": {
                "type": "object",
                "required": ["id", "scheduleId", "schedule", "employeeId", "employee", "start", "end", "source", "sourceId"],
                "properties": {
                  "id": { "type": "string" },
                  "scheduleId": { "type": "string" },
                  "schedule": { "type": "string" },
                  "employeeId": { "type": "string" },
                  "employee": { "type": "string" },
                  "start": { "type": "string", "format": "date-time" },
                  "end": { "type": "string", "format": "date-time" },
                  "source": { "type": "string", "enum": ["rotation", "shift", "override", "temporary", "unknown"] },
                  "sourceId": { "type": "string" },
                  "overrideSource": { "type": "string", "description": "A self-service override's source: request:ID or take:EMPLOYEE_ID." }
                }
              },
              "Shifts": {
                "type": "object",
                "required": ["revision", "epoch", "truncated", "shifts"],
                "properties": {
                  "revision": { "type": "integer", "minimum": 0 },
                  "epoch": { "type": "string" },
                  "truncated": { "type": "boolean" },
                  "shifts": { "type": "array", "items": { "$ref": "#/components/schemas/Shift" } },
                  "conflicts": {
                    "type": "array", "description": "Duty inside its person's time off, with who could cover it (docs/TIME-OFF.md); absent when none.",
                    "items": { "$ref": "#/components/schemas/Conflict" }
                  }
                }
              },
              "Conflict": {
                "type": "object",
                "required": ["id", "scheduleId", "employeeId", "employee", "start", "end", "timeOffId", "proposals"],
                "properties": {
                  "id": { "type": "string" },
                  "scheduleId": { "type": "string" },
                  "employeeId": { "type": "string" },
                  "employee": { "type": "string" },
                  "start": { "type": "string", "format": "date-time" },
                  "end": { "type": "string", "format": "date-time" },
                  "timeOffId": { "type": "string" },
                  "proposals": {
                    "type": "array", "description": "Free then, fewest hours 14 days either side first.",
                    "items": {
                      "type": "object", "required": ["employeeId", "employee", "hoursAround"],
                      "properties": { "employeeId": { "type": "string" }, "employee": { "type": "string" }, "hoursAround": { "type": "number", "minimum": 0 } }
                    }
                  }
                }
              }
            },
            "responses": {
              "Problem": {
                "description": "The request was refused or could not be answered; the detail says why.",
                "content": { "application/problem+json": { "schema": { "$ref": "#/components/schemas/Problem" } } }
              }
            },
            "parameters": {
              "at": {
                "name": "at", "in": "query", "required": false,
                "description": "An ISO 8601 instant (default: now), within the years 1971 to 9998.",
                "schema": { "type": "string", "format": "date-time" }
              },
              "schedule": {
                "name": "schedule", "in": "query", "required": false,
                "description": "A schedule's id or name (default: every schedule).",
                "schema": { "type": "string" }
              }
            }
          },
          "paths": {
            "/livez": {
              "get": {
                "summary": "The process serves.",
                "responses": { "200": { "description": "ok", "content": { "text/plain": { "schema": { "type": "string" } } } } }
              }
            },
            "/readyz": {
              "get": {
                "summary": "Every tenant is loaded and the store takes writes.",
                "responses": {
                  "200": { "description": "ready", "content": { "text/plain": { "schema": { "type": "string" } } } },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/metrics": {
              "get": {
                "summary": "Prometheus metrics (tenant series on loopback, or for an admin token's own tenant).",
                "responses": {
                  "200": { "description": "The text exposition format.", "content": { "text/plain": { "schema": { "type": "string" } } } },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/oncall": {
              "get": {
                "summary": "Who is on call on each schedule at an instant, or the final schedule over a window.",
                "description": "With from and to: the final schedule over [from, to) (at most 366 days). Otherwise who is on duty at `at` on each schedule, until when, and who is next.",
                "security": [{ "token": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/at" },
                  { "$ref": "#/components/parameters/schedule" },
                  { "name": "from", "in": "query", "required": false, "description": "Window start, ISO 8601 (with to).", "schema": { "type": "string", "format": "date-time" } },
                  { "name": "to", "in": "query", "required": false, "description": "Window end, ISO 8601 (with from).", "schema": { "type": "string", "format": "date-time" } }
                ],
                "responses": {
                  "200": {
                    "description": "Now, or Shifts when a window was asked for.",
                    "content": { "application/json": { "schema": { "oneOf": [{ "$ref": "#/components/schemas/Now" }, { "$ref": "#/components/schemas/Shifts" }] } } }
                  },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/people/{person}/next": {
              "get": {
                "summary": "When a person is next on duty on each schedule.",
                "security": [{ "token": [] }],
                "parameters": [
                  { "name": "person", "in": "path", "required": true, "description": "An employee's id or full name.", "schema": { "type": "string", "minLength": 1 } },
                  { "$ref": "#/components/parameters/at" },
                  { "$ref": "#/components/parameters/schedule" }
                ],
                "responses": {
                  "200": { "description": "The person's next stretch on each schedule.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Shifts" } } } },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/requests": {
              "get": {
                "summary": "Cover requests, by start, in the state they are in now.",
                "security": [{ "token": [] }],
                "parameters": [
                  { "$ref": "#/components/parameters/schedule" },
                  { "name": "state", "in": "query", "required": false, "description": "Only requests in this state.", "schema": { "type": "string", "enum": ["open", "taken", "cancelled", "expired"] } }
                ],
                "responses": {
                  "200": { "description": "The requests.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CoverRequests" } } } },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/requests/{id}/{step}": {
              "post": {
                "summary": "A cover request's next step, as the token's person (or, for an admin token, the person `for` names).",
                "security": [{ "token": [] }],
                "parameters": [
                  { "name": "id", "in": "path", "required": true, "description": "The request's id.", "schema": { "type": "string", "minLength": 1 } },
                  { "name": "step", "in": "path", "required": true, "schema": { "type": "string", "enum": ["take", "decline", "cancel", "back-out"] } },
                  { "name": "for", "in": "query", "required": false, "description": "Admins: the person who acts (id or full name).", "schema": { "type": "string" } }
                ],
                "responses": {
                  "200": { "description": "Done: the revision and the request after it.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/CoverRequestStep" } } } },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "403": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "409": { "$ref": "#/components/responses/Problem" },
                  "413": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/calendar/{token}.ics": {
              "get": {
                "summary": "An iCalendar feed; the calendar token in the path is the credential.",
                "parameters": [
                  { "name": "token", "in": "path", "required": true, "description": "A calendar token (rst_…).", "schema": { "type": "string", "minLength": 1 } },
                  { "name": "alarm", "in": "query", "required": false, "description": "A reminder that long before each shift: 15m, 1h, 1d (at most 7 days).", "schema": { "type": "string" } }
                ],
                "responses": {
                  "200": { "description": "The feed (RFC 5545).", "content": { "text/calendar": { "schema": { "type": "string" } } } },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/events": {
              "get": {
                "summary": "Server-Sent Events of one tenant's changes: hello, roster, onduty, resync.",
                "description": "A stream that stays open (docs/HTTP.md, \"Event stream\"). A bearer token's tenant, a signed-in web session's, or the default tenant on a loopback listener.",
                "security": [{ "token": [] }, {}],
                "responses": {
                  "200": { "description": "The stream.", "content": { "text/event-stream": { "schema": { "type": "string" } } } },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/openapi.json": {
              "get": {
                "summary": "This document.",
                "responses": { "200": { "description": "OpenAPI 3.1", "content": { "application/json": { "schema": { "type": "object" } } } } }
              }
            }
          }
        }
        """#
}
