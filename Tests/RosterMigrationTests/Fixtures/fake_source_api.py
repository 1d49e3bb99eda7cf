#!/usr/bin/env python3
"""A loopback fake of PagerDuty's, Opsgenie's, GoAlert's or Grafana OnCall's API for `migrate --api` tests.

Serves an export file (docs/MIGRATING.md's shape) and a rendered list as the API would.
PagerDuty: lists in pages of at most 3 (`limit`, `offset`, `more`), GET /schedules/{id} (with
`final_schedule` clipped to `since`/`until` when they are given), GET /schedules/{id}/overrides.
Opsgenie: /v2/users in pages of at most 3 (`paging.next`), /v2/schedules?expand=rotation,
/v2/schedules/{id}/overrides, /v2/escalations, /v2/schedules/{id}/timeline (the rendered one).
GoAlert: POST /api/graphql with a Bearer key made for docs/examples/goalert-api.graphql, as
GoAlert's key middleware checks it (another document: "wrong query for API key", code
invalid_query); each operation of that document answered from the export (connections in pages
of 3 with cursors), RosterShifts from the rendered list clipped to start/end; its `Date` header
is the export's exportedAt (GoAlert's clock at the export). Printed "POST /api/graphql OPERATION".
Grafana OnCall: the key as the whole Authorization header; /api/v1/{users,schedules,
on_call_shifts,escalation_chains,escalation_policies}/ in pages of 3 (`page`, `next` links to
another host), /api/v1/schedules/{id}/final_shifts?start_date=&end_date= (the rendered list
within start_date 00:00 and the second before end_date).
The first request for the users answers 429 with Retry-After: 1. Anything but GET (a POST for
GoAlert) is 405; a wrong token is 401; every path under /moved redirects (302) to the same path
at the root. Each request is printed as "METHOD PATH" on standard output, after a first line
"PORT n".

Usage: fake_source_api.py pagerduty|opsgenie|goalert|grafana-oncall EXPORT RENDERED TOKEN
"""
import email.utils
import os
import json
import sys
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

SOURCE = sys.argv[1]
EXPORT = json.load(open(sys.argv[2]))
RENDERED = {s.get("_parent", s).get("id"): s for s in json.load(open(sys.argv[3]))["schedules"]}
TOKEN = sys.argv[4]
AUTHORIZATION = {"opsgenie": "GenieKey ", "goalert": "Bearer ", "grafana-oncall": ""}.get(SOURCE, "Token token=") + TOKEN
DOCUMENT = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "examples",
                             "goalert-api.graphql")).read()
GRAFANA_LISTS = ["users", "schedules", "on_call_shifts", "escalation_chains", "escalation_policies"]
LISTS = {"/users": "users", "/teams": "teams", "/escalation_policies": "escalation_policies", "/services": "services"}
limited = {"done": False}


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def page(items, query):
    limit = min(int(query.get("limit", ["25"])[0]), 3)
    offset = int(query.get("offset", ["0"])[0])
    chunk = items[offset:offset + limit]
    return {"offset": offset, "limit": limit, "more": offset + limit < len(items), "items": chunk}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body=None, headers=()):
        data = json.dumps(body if body is not None else {}).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def date_time_string(self, timestamp=None):
        if SOURCE == "goalert":
            return email.utils.formatdate(instant(EXPORT["exportedAt"]).timestamp(), usegmt=True)
        return super().date_time_string(timestamp)

    def do_POST(self):
        if SOURCE != "goalert" or self.path != "/api/graphql":
            return self.refuse()
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        operation, variables = request.get("operationName"), request.get("variables", {})
        print("POST /api/graphql " + str(operation), flush=True)
        if self.headers.get("Authorization") != AUTHORIZATION or self.headers.get("Content-Type") != "application/json":
            return self.answer(401, {"errors": [{"message": "unauthorized"}]})
        if request.get("query") != DOCUMENT:
            return self.answer(200, {"errors": [{"message": "wrong query for API key",
                                                 "extensions": {"code": "invalid_query"}}], "data": None})
        if operation == "RosterUsers" and not limited["done"]:
            limited["done"] = True
            return self.answer(429, {"errors": [{"message": "rate limited"}]}, [("Retry-After", "1")])
        fields = {"RosterUsers": "users", "RosterRotations": "rotations", "RosterSchedules": "schedules",
                  "RosterOverrides": "userOverrides", "RosterEscalationPolicies": "escalationPolicies",
                  "RosterServices": "services"}
        if operation in fields:
            items = EXPORT[fields[operation]]
            if operation == "RosterOverrides":
                since, until = instant(variables["start"]), instant(variables["end"])
                items = [o for o in items if instant(o["start"]) < until and instant(o["end"]) > since]
            offset = int(variables["after"] or "0")
            chunk = items[offset:offset + 3]
            more = offset + 3 < len(items)
            connection = {"nodes": chunk, "pageInfo": {"endCursor": str(offset + 3) if more else None,
                                                       "hasNextPage": more}}
            return self.answer(200, {"data": {fields[operation]: connection}})
        if operation == "RosterShifts":
            since, until = instant(variables["start"]), instant(variables["end"])
            schedule = RENDERED.get(variables["id"])
            if schedule is None:
                return self.answer(200, {"data": {"schedule": None}})
            shifts = [{**s, "start": max(instant(s["start"]), since).isoformat(),
                       "end": min(instant(s["end"]), until).isoformat()}
                      for s in schedule["shifts"] if instant(s["start"]) < until and instant(s["end"]) > since]
            return self.answer(200, {"data": {"schedule": {"id": variables["id"], "shifts": shifts}}})
        return self.answer(200, {"errors": [{"message": "unknown operation"}], "data": None})

    def refuse(self):
        print(self.command + " " + self.path, flush=True)
        self.answer(405, {"error": "read-only"})

    do_PUT = do_DELETE = do_PATCH = refuse

    def do_GET(self):
        print("GET " + self.path, flush=True)
        if self.headers.get("Authorization") != AUTHORIZATION:
            return self.answer(401, {"error": {"message": "Unauthorized"}})
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        if path.startswith("/moved/"):
            return self.answer(302, {}, [("Location", self.path[len("/moved"):])])
        if path in ("/users", "/v2/users", "/api/v1/users/") and not limited["done"]:
            limited["done"] = True
            return self.answer(429, {"error": {"message": "Rate Limit Exceeded"}}, [("Retry-After", "1")])
        if SOURCE == "opsgenie":
            return self.opsgenie(path, query)
        if SOURCE == "grafana-oncall":
            return self.grafana(path, query)
        if SOURCE == "goalert":
            return self.refuse()
        if path in LISTS:
            key = LISTS[path]
            result = page(EXPORT[key], query)
            return self.answer(200, {key: result.pop("items"), **result})
        if path == "/schedules":
            references = [{"id": s["id"], "type": "schedule_reference", "summary": s["name"]} for s in EXPORT["schedules"]]
            result = page(references, query)
            return self.answer(200, {"schedules": result.pop("items"), **result})
        segments = path.strip("/").split("/")
        schedule = next((s for s in EXPORT["schedules"] if len(segments) >= 2 and s["id"] == segments[1]), None)
        if segments[0] != "schedules" or schedule is None:
            return self.answer(404, {"error": {"message": "Not Found"}})
        if len(segments) == 3 and segments[2] == "overrides":
            since, until = instant(query["since"][0]), instant(query["until"][0])
            found = [o for o in schedule.get("overrides", []) if instant(o["start"]) < until and instant(o["end"]) > since]
            result = page(found, query)
            return self.answer(200, {"overrides": result.pop("items"), **result})
        body = {k: v for k, v in schedule.items() if k != "overrides"}
        if "since" in query and "until" in query:
            since, until = instant(query["since"][0]), instant(query["until"][0])
            entries = [
                {**e, "start": max(instant(e["start"]), since).isoformat(), "end": min(instant(e["end"]), until).isoformat()}
                for e in RENDERED[schedule["id"]]["final_schedule"]["rendered_schedule_entries"]
                if instant(e["start"]) < until and instant(e["end"]) > since
            ]
            body["final_schedule"] = {"name": "Final Schedule", "rendered_schedule_entries": entries}
        return self.answer(200, {"schedule": body})


    def opsgenie(self, path, query):
        if path == "/v2/users":
            result = page(EXPORT["users"], query)
            more = result["more"]
            body = {"data": result["items"], "totalCount": len(EXPORT["users"]), "paging": {}}
            if more:
                body["paging"]["next"] = "https://elsewhere.example/v2/users?offset=%d" % (result["offset"] + result["limit"])
            return self.answer(200, body)
        if path == "/v2/schedules" and query.get("expand") == ["rotation"]:
            return self.answer(200, {"data": EXPORT["schedules"]})
        if path == "/v2/escalations":
            return self.answer(200, {"data": EXPORT["escalations"]})
        segments = path.strip("/").split("/")
        if len(segments) == 4 and segments[:2] == ["v2", "schedules"] and segments[3] == "overrides":
            return self.answer(200, {"data": EXPORT["overrides"].get(segments[2], [])})
        if len(segments) == 4 and segments[:2] == ["v2", "schedules"] and segments[3] == "timeline":
            since = instant(query["date"][0])
            until = since + timedelta(days=int(query["interval"][0]))
            timeline = json.loads(json.dumps(RENDERED[segments[2]]))
            for rotation in timeline["finalTimeline"]["rotations"]:
                rotation["periods"] = [
                    {**p, "startDate": max(instant(p["startDate"]), since).isoformat(),
                     "endDate": min(instant(p["endDate"]), until).isoformat()}
                    for p in rotation["periods"] if instant(p["startDate"]) < until and instant(p["endDate"]) > since]
            return self.answer(200, {"data": timeline})
        return self.answer(404, {"message": "Not Found"})

    def grafana(self, path, query):
        for name in GRAFANA_LISTS:
            if path == "/api/v1/%s/" % name:
                number = int(query.get("page", ["1"])[0])
                items = EXPORT.get(name, [])
                chunk = items[(number - 1) * 3:number * 3]
                more = number * 3 < len(items)
                return self.answer(200, {
                    "count": len(items), "results": chunk, "previous": None, "page_size": 3,
                    "next": "https://elsewhere.example/api/v1/%s/?page=%d" % (name, number + 1) if more else None})
        segments = path.strip("/").split("/")
        if len(segments) == 5 and segments[:3] == ["api", "v1", "schedules"] and segments[4] == "final_shifts":
            schedule = RENDERED.get(segments[3])
            if schedule is None:
                return self.answer(404, {"detail": "Not found."})
            since = instant(query["start_date"][0] + "T00:00:00Z")
            until = instant(query["end_date"][0] + "T00:00:00Z") - timedelta(seconds=1)
            shifts = [{**s, "shift_start": max(instant(s["shift_start"]), since).isoformat(),
                       "shift_end": min(instant(s["shift_end"]), until).isoformat()}
                      for s in schedule["final_shifts"]
                      if instant(s["shift_start"]) < until and instant(s["shift_end"]) > since]
            return self.answer(200, {"count": len(shifts), "next": None, "previous": None, "results": shifts})
        return self.answer(404, {"detail": "Not found."})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("PORT %d" % server.server_address[1], flush=True)
server.serve_forever()
