#!/usr/bin/env python3
"""PagerDuty's final schedule, rendered from an export by PagerDuty's documented rules.

A separate implementation (Python's zoneinfo, none of Roster's code) of what PagerDuty's
REST API documents for schedules, used to write the expected lists that `migrate
--verify-against` is checked with:

- a layer's turn k starts at rotation_virtual_start + k * rotation_turn_length_seconds, counted
  on the wall clock of the schedule's time_zone (a handoff keeps its local time across a
  daylight-saving change), and belongs to users[k mod n], k negative too;
- a layer is on call only from its start until its end;
- restrictions keep the parts of turns inside them: a daily one from start_time_of_day for
  duration_seconds every day, a weekly one from start_day_of_week (ISO, 1 = Monday);
- the final schedule takes, at each instant, the last layer of schedule_layers that has anyone
  on call (the list's last layer is drawn on top; by rendering_index, the highest on top, when
  every layer has one), then each override puts its user alone.

Usage: pagerduty_render.py EXPORT SINCE UNTIL > FINAL.json (SINCE and UNTIL in ISO 8601).
"""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


def wall(naive, zone):
    """A local wall-clock time in `zone` as a UTC instant (the earlier one when ambiguous)."""
    return naive.replace(tzinfo=zone, fold=0).astimezone(timezone.utc)


def turns(layer, zone, lo, hi):
    virtual = instant(layer["rotation_virtual_start"]).astimezone(zone).replace(tzinfo=None)
    length = layer["rotation_turn_length_seconds"]
    users = [entry["user"]["id"] for entry in layer["users"]]
    if not users:
        return []

    def start(k):
        if length % 86400 == 0:
            return wall(virtual + timedelta(days=k * (length // 86400)), zone)
        return wall(virtual + timedelta(seconds=k * length), zone)

    # A first turn safely before lo: step back from an estimate.
    k = int((lo - wall(virtual, zone)).total_seconds() // length) - 2
    while start(k) > lo:
        k -= 1
    out = []
    while start(k) < hi:
        out.append((start(k), start(k + 1), users[k % len(users)]))
        k += 1
    return out


def windows(layer, zone, lo, hi):
    restrictions = layer.get("restrictions") or []
    if not restrictions:
        return [(lo, hi)]
    out = []
    day = lo.astimezone(zone).date() - timedelta(days=8)
    last = hi.astimezone(zone).date() + timedelta(days=1)
    while day <= last:
        for restriction in restrictions:
            hours, minutes, seconds = (int(part) for part in restriction["start_time_of_day"].split(":"))
            if restriction["type"] == "weekly_restriction" and day.isoweekday() != restriction["start_day_of_week"]:
                continue
            opens = datetime(day.year, day.month, day.day, hours, minutes, seconds)
            closes = opens + timedelta(seconds=restriction["duration_seconds"])
            out.append((wall(opens, zone), wall(closes, zone)))
        day += timedelta(days=1)
    return out


def layer_pieces(layer, zone, lo, hi):
    begin = max(lo, instant(layer["start"]))
    end = min(hi, instant(layer["end"])) if layer.get("end") else hi
    pieces = []
    for turn_start, turn_end, user in turns(layer, zone, begin, end):
        for open_at, close_at in windows(layer, zone, turn_start, turn_end):
            s, e = max(turn_start, open_at, begin), min(turn_end, close_at, end)
            if s < e:
                pieces.append((s, e, user))
    return pieces


def final(schedule, lo, hi):
    zone = ZoneInfo(schedule["time_zone"])
    ranked = schedule["schedule_layers"]
    if all("rendering_index" in layer for layer in ranked):
        ranked = sorted(ranked, key=lambda layer: layer["rendering_index"])
    layers = [layer_pieces(layer, zone, lo, hi) for layer in ranked]
    overrides = [(instant(o["start"]), instant(o["end"]), o["user"]["id"]) for o in schedule.get("overrides") or []]
    cuts = sorted({lo, hi} | {t for pieces in layers + [overrides] for s, e, _ in pieces for t in (s, e) if lo < t < hi})
    entries = []
    for s, e in zip(cuts, cuts[1:]):
        user = None
        for pieces in layers:  # the last layer with anyone on call wins
            for ps, pe, who in pieces:
                if ps <= s and e <= pe:
                    user = who
        for os_, oe, who in overrides:
            if os_ <= s and e <= oe:
                user = who
        if user is None:
            continue
        if entries and entries[-1][2] == user and entries[-1][1] == s:
            entries[-1] = (entries[-1][0], e, user)
        else:
            entries.append((s, e, user))
    return zone, entries


def main():
    export = json.load(open(sys.argv[1]))
    lo, hi = instant(sys.argv[2]), instant(sys.argv[3])
    names = {user["id"]: user["name"] for user in export["users"]}
    schedules = []
    for schedule in export["schedules"]:
        zone, entries = final(schedule, lo, hi)
        schedules.append({
            "id": schedule["id"],
            "name": schedule["name"],
            "time_zone": schedule["time_zone"],
            "final_schedule": {
                "name": "Final Schedule",
                "rendered_schedule_entries": [
                    {
                        "start": s.astimezone(zone).isoformat(),
                        "end": e.astimezone(zone).isoformat(),
                        "user": {"id": who, "type": "user_reference", "summary": names.get(who, who)},
                    }
                    for s, e, who in entries
                ],
            },
        })
    json.dump({"since": sys.argv[2], "until": sys.argv[3], "schedules": schedules}, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
