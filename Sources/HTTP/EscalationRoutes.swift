import RosterDomain
import RosterProtocol
import RosterServerCore

/// `/v1/services/{service}/oncall` and `/v1/escalation-policies/{policy}/oncall`: whom a page
/// reaches at each step (docs/ESCALATION.md), the protocol's GetEscalation as JSON.
extension HTTPAPI {
    func escalation(service: String? = nil, policy: String? = nil, _ request: Request, tenant: TenantRuntime)
        -> Reply
    {
        let view = tenant.view
        let now = tenant.clock.now()
        let at: UnixMillis?
        do { at = try Self.instant(request.query["at"], name: "at") } catch { return error.reply }
        let simulate: Bool
        switch request.query["simulate"] {
        case nil, "false": simulate = false
        case "true": simulate = true
        case let other?: return Self.problem(400, "simulate is true or false, not \"\(other)\"")
        }
        let query = Roster_V1_GetEscalationRequest.with {
            $0.service = service ?? ""
            $0.policy = policy ?? ""
            if let at { $0.atMs = at }
            $0.simulate = simulate
        }
        switch Queries.answer(.getEscalation(query), view: view, now: now) {
        case .success(.escalation(let answer)):
            return Self.json(
                EscalationJSON.answer(answer, scheduleName: { view.state.schedules[$0]?.name ?? $0 }))
        case .success(let other): return Self.problem(500, "unexpected answer \(other.type)")
        case .failure(let error): return Self.problem(error)
        }
    }
}

/// The escalation routes' part of the OpenAPI document: merged into `OpenAPIDocument`.
enum OpenAPIEscalation {
    static let fragment = #"""
        {
          "paths": {
            "/v1/services/{service}/oncall": {
              "get": {
                "summary": "Whom a page for this service reaches at each step of its escalation policy, at an instant or (simulate) along the page's timeline.",
                "security": [{ "token": [] }],
                "parameters": [
                  { "name": "service", "in": "path", "required": true, "description": "A service's id or name.", "schema": { "type": "string", "minLength": 1 }, "example": "Payments API" },
                  { "$ref": "#/components/parameters/at" },
                  { "$ref": "#/components/parameters/simulate" }
                ],
                "responses": {
                  "200": { "description": "Each step's people.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Escalation" } } } },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/escalation-policies/{policy}/oncall": {
              "get": {
                "summary": "Whom a page through this escalation policy reaches at each step, at an instant or (simulate) along the page's timeline.",
                "security": [{ "token": [] }],
                "parameters": [
                  { "name": "policy", "in": "path", "required": true, "description": "An escalation policy's id or name.", "schema": { "type": "string", "minLength": 1 }, "example": "Payments" },
                  { "$ref": "#/components/parameters/at" },
                  { "$ref": "#/components/parameters/simulate" }
                ],
                "responses": {
                  "200": { "description": "Each step's people.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Escalation" } } } },
                  "400": { "$ref": "#/components/responses/Problem" },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "404": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            }
          },
          "parameters": {
            "simulate": { "name": "simulate", "in": "query", "required": false, "description": "true: the page's timeline from `at`, each step at its own instant, through the policy's repeats.", "schema": { "type": "string", "enum": ["true", "false"] } }
          },
          "schemas": {
            "EscalationNamed": {
              "type": "object", "required": ["id", "name"],
              "properties": { "id": { "type": "string" }, "name": { "type": "string" } }
            },
            "EscalationUser": {
              "type": "object", "required": ["id", "name"],
              "properties": { "id": { "type": "string" }, "name": { "type": "string" }, "email": { "type": "string" }, "phone": { "type": "string" } }
            },
            "Escalation": {
              "type": "object",
              "required": ["at", "revision", "escalationPolicy", "steps", "oncalls", "warnings"],
              "properties": {
                "at": { "type": "string", "format": "date-time" },
                "revision": { "type": "integer", "minimum": 0 },
                "service": { "$ref": "#/components/schemas/EscalationNamed" },
                "escalationPolicy": {
                  "type": "object", "required": ["id", "name", "repeatCount"],
                  "properties": { "id": { "type": "string" }, "name": { "type": "string" }, "repeatCount": { "type": "integer", "minimum": 0, "maximum": 9 } }
                },
                "steps": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": ["escalationLevel", "round", "at", "delayMinutes", "strategy", "people"],
                    "properties": {
                      "escalationLevel": { "type": "integer", "minimum": 1 },
                      "round": { "type": "integer", "minimum": 0 },
                      "at": { "type": "string", "format": "date-time" },
                      "until": { "type": "string", "format": "date-time" },
                      "delayMinutes": { "type": "integer", "minimum": 1, "maximum": 1440 },
                      "strategy": { "type": "string", "enum": ["everyone", "round_robin"] },
                      "people": {
                        "type": "array",
                        "items": {
                          "type": "object", "required": ["user"],
                          "properties": { "user": { "$ref": "#/components/schemas/EscalationUser" }, "schedule": { "$ref": "#/components/schemas/EscalationNamed" } }
                        }
                      }
                    }
                  }
                },
                "oncalls": {
                  "type": "array",
                  "description": "One entry per person and step, as PagerDuty's GET /oncalls lists them.",
                  "items": {
                    "type": "object",
                    "required": ["escalationLevel", "round", "start", "user", "escalationPolicy"],
                    "properties": {
                      "escalationLevel": { "type": "integer", "minimum": 1 },
                      "round": { "type": "integer", "minimum": 0 },
                      "start": { "type": "string", "format": "date-time" },
                      "end": { "type": "string", "format": "date-time" },
                      "user": { "$ref": "#/components/schemas/EscalationUser" },
                      "schedule": { "$ref": "#/components/schemas/EscalationNamed" },
                      "escalationPolicy": { "$ref": "#/components/schemas/EscalationNamed" }
                    }
                  }
                },
                "warnings": { "type": "array", "items": { "type": "string" } }
              }
            }
          }
        }
        """#
}
