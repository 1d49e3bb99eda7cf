#!/usr/bin/env python3
"""Opsgenie's final timeline, rendered from an export by Opsgenie's documented rules.

A separate implementation (Python's zoneinfo, none of Roster's code) of what Opsgenie's REST API
documentation says of schedules, used to write the expected timelines that `migrate --from
opsgenie --verify-against` is checked with:

- a rotation hands off at startDate and every `length` hours, days or weeks after it on the
  wall clock of the schedule's timezone, to its participants in order (`none` is a turn for
  nobody), until endDate;
- a time restriction keeps the parts of turns inside it: time-of-day every day, over midnight
  when the end is not after the start; weekday-and-time-of-day from a day and time to a day and
  time, over the week's end when needed;
- every rotation of a schedule is on call at once;
- an override puts its user in the place of the named rotations' people (every rotation's when
  none is named) over its span.

Usage: opsgenie_render.py EXPORT SINCE UNTIL > TIMELINES.json
"""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

UTC = timezone.utc
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def wall(naive, zone):
    return naive.replace(tzinfo=zone, fold=0).astimezone(UTC)


def turns(rotation, zone, hi):
    start = instant(rotation["startDate"])
    end = instant(rotation["endDate"]) if rotation.get("endDate") else hi
    local = start.astimezone(zone).replace(tzinfo=None)
    n = rotation.get("length", 1)
    unit = {"hourly": timedelta(hours=n), "daily": timedelta(days=n), "weekly": timedelta(days=7 * n)}[rotation["type"]]
    out, k = [], 0
    while True:
        s, e = wall(local + unit * k, zone), wall(local + unit * (k + 1), zone)
        if s >= min(hi, end):
            return out
        who = rotation["participants"][k % len(rotation["participants"])]
        if who["type"] == "user":
            out.append((s, min(e, end), who["id"]))
        k += 1


def windows(rotation, zone, lo, hi):
    restriction = rotation.get("timeRestriction")
    if not restriction:
        return [(lo, hi)]
    out = []
    day = lo.astimezone(zone).date() - timedelta(days=8)
    while day <= hi.astimezone(zone).date() + timedelta(days=1):
        if restriction["type"] == "time-of-day":
            r = restriction["restriction"]
            opens = datetime(day.year, day.month, day.day, r["startHour"], r["startMin"])
            closes = datetime(day.year, day.month, day.day, r["endHour"], r["endMin"])
            if closes <= opens:
                closes += timedelta(days=1)
            out.append((wall(opens, zone), wall(closes, zone)))
        else:
            for r in restriction["restrictions"]:
                if DAYS[day.weekday()] != r["startDay"]:
                    continue
                opens = datetime(day.year, day.month, day.day, r["startHour"], r["startMin"])
                days = (DAYS.index(r["endDay"]) - DAYS.index(r["startDay"])) % 7
                closes = datetime(day.year, day.month, day.day, r["endHour"], r["endMin"]) + timedelta(days=days)
                if closes <= opens:
                    closes += timedelta(days=7)
                out.append((wall(opens, zone), wall(closes, zone)))
        day += timedelta(days=1)
    return out


def render(export, schedule, lo, hi):
    zone = ZoneInfo(schedule["timezone"])
    pieces = []  # (start, end, user, rotation id)
    for rotation in schedule["rotations"]:
        for s, e, who in turns(rotation, zone, hi):
            for ws, we in windows(rotation, zone, s, e):
                a, b = max(s, ws, lo), min(e, we, hi)
                if a < b:
                    pieces.append((a, b, who, rotation["id"]))
    overrides = export.get("overrides", {}).get(schedule["id"], [])
    cuts = sorted({lo, hi} | {t for s, e, _, _ in pieces for t in (s, e) if lo < t < hi}
                  | {t for o in overrides for t in (instant(o["startDate"]), instant(o["endDate"])) if lo < t < hi})
    periods = []
    for s, e in zip(cuts, cuts[1:]):
        on = [(who, rot) for ps, pe, who, rot in pieces if ps <= s and e <= pe]
        people = {who for who, _ in on}
        for o in overrides:
            if instant(o["startDate"]) <= s and e <= instant(o["endDate"]):
                named = {r["id"] for r in o.get("rotations", [])}
                people = {who for who, rot in on if named and rot not in named} | {o["user"]["id"]}
        for who in sorted(people):
            last = next((p for p in reversed(periods) if p[2] == who), None)
            if last and last[1] == s:
                last[1] = e
            else:
                periods.append([s, e, who])
    names = {u["id"]: u["fullName"] for u in export["users"]}
    return {
        "_parent": {"id": schedule["id"], "name": schedule["name"], "enabled": True},
        "startDate": lo.isoformat(), "endDate": hi.isoformat(),
        "finalTimeline": {"rotations": [{"id": "final", "name": "final", "periods": [
            {"startDate": s.isoformat(), "endDate": e.isoformat(), "type": "default",
             "recipient": {"type": "user", "id": who, "name": names.get(who, who)}}
            for s, e, who in periods]}]},
    }


export = json.load(open(sys.argv[1]))
lo, hi = instant(sys.argv[2]), instant(sys.argv[3])
json.dump({"since": sys.argv[2], "until": sys.argv[3],
           "schedules": [render(export, s, lo, hi) for s in export["schedules"]]}, sys.stdout, indent=1)
sys.stdout.write("\n")
