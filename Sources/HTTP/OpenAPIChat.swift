/// The slash commands' part of the OpenAPI document (docs/CHAT.md): merged into `OpenAPIDocument`.
enum OpenAPIChat {
    static let fragment = #"""
        {
          "paths": {
            "/v1/chat/slack/command": {
              "post": {
                "summary": "Slack's /oncall: answered when X-Slack-Signature verifies under the tenant's signing secret (admin chat slack).",
                "parameters": [
                  { "name": "tenant", "in": "query", "required": false, "description": "The tenant (default: the server's default tenant).", "schema": { "type": "string" } },
                  { "name": "X-Slack-Request-Timestamp", "in": "header", "required": false, "description": "Unix seconds, within 5 minutes of the server's clock.", "schema": { "type": "string" } },
                  { "name": "X-Slack-Signature", "in": "header", "required": false, "description": "v0= and the hex HMAC-SHA256 of v0:TIMESTAMP:BODY.", "schema": { "type": "string" } }
                ],
                "requestBody": { "required": true, "content": { "application/x-www-form-urlencoded": { "schema": { "$ref": "#/components/schemas/SlashCommand" } } } },
                "responses": {
                  "200": { "description": "The answer, for the caller only unless --public.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SlashAnswer" } } } },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "413": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            },
            "/v1/chat/mattermost/command": {
              "post": {
                "summary": "Mattermost's /oncall: answered when the form's token is the tenant's command token (admin chat mattermost).",
                "parameters": [
                  { "name": "tenant", "in": "query", "required": false, "description": "The tenant (default: the server's default tenant).", "schema": { "type": "string" } }
                ],
                "requestBody": { "required": true, "content": { "application/x-www-form-urlencoded": { "schema": { "$ref": "#/components/schemas/SlashCommand" } } } },
                "responses": {
                  "200": { "description": "The answer, for the caller only unless --public.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/SlashAnswer" } } } },
                  "401": { "$ref": "#/components/responses/Problem" },
                  "413": { "$ref": "#/components/responses/Problem" },
                  "429": { "$ref": "#/components/responses/Problem" },
                  "503": { "$ref": "#/components/responses/Problem" }
                }
              }
            }
          },
          "schemas": {
            "SlashCommand": {
              "type": "object",
              "properties": {
                "text": { "type": "string", "description": "\"\", SCHEDULE, next SCHEDULE, me or help; --public answers in the channel." },
                "token": { "type": "string" },
                "user_id": { "type": "string" },
                "user_name": { "type": "string" },
                "command": { "type": "string" }
              }
            },
            "SlashAnswer": {
              "type": "object",
              "required": ["response_type", "text"],
              "properties": {
                "response_type": { "type": "string", "enum": ["ephemeral", "in_channel"] },
                "text": { "type": "string" }
              }
            }
          }
        }
        """#
}
