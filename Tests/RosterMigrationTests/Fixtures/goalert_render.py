#!/usr/bin/env python3
"""GoAlert's schedule shifts, rendered from an export by GoAlert's own rules.

A separate implementation (Python's zoneinfo, none of Roster's code) of what GoAlert's source
does (schedule/rotation/rotation.go, schedule/rule/rule.go), used to write the expected lists
that `migrate --from goalert --verify-against` is checked with:

- a rotation hands off from its `start`, in its own time zone, every shiftLength days (daily),
  7 x shiftLength days (weekly) or shiftLength wall-clock hours (hourly, the next hour that is
  later when a wall time does not exist), as Rotation.EndTime does; its position is state: the
  participant at activeUserIndex holds the shift under way at exportedAt, and each handoff
  moves to the next;
- a schedule's target (a rotation or a user) is on call where one of its rules is active
  (Rule.IsActive, in the schedule's zone: on a day of weekdayFilter, Sunday first, from start to
  end, over midnight when end is not after start); the schedule is the union of its targets;
- overrides then add a user, remove one, or put one in the place of another, over their span.

Usage: goalert_render.py EXPORT SINCE UNTIL > SHIFTS.json
"""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

UTC = timezone.utc


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def go_date(naive, zone):
    """Go's time.Date: a wall time that does not exist takes the offset before the change."""
    return naive.replace(tzinfo=zone, fold=0).astimezone(UTC)


def rule_edge(naive, zone, closing):
    """When Rule.IsActive turns at wall time `naive`: the clock compared minute by minute."""
    early = naive.replace(tzinfo=zone, fold=0).astimezone(UTC)
    late = naive.replace(tzinfo=zone, fold=1).astimezone(UTC)
    if early.astimezone(zone).replace(tzinfo=None) != naive:  # skipped: the change itself
        t = min(early, late)
        while t.astimezone(zone).replace(tzinfo=None) < naive:
            t += timedelta(minutes=1)
        return t
    return max(early, late) if closing else min(early, late)


def handoffs(rotation, hi):
    """Every handoff from the rotation's start until after `hi`, as Rotation.EndTime steps."""
    zone = ZoneInfo(rotation["timeZone"])
    n = rotation["shiftLength"]

    def step(t):
        wall = t.astimezone(zone).replace(tzinfo=None)
        if rotation["type"] == "hourly":  # addHoursAlwaysInc
            k = n
            while go_date(wall + timedelta(hours=k), zone) <= t:
                k += 1
            return go_date(wall + timedelta(hours=k), zone)
        return go_date(wall + timedelta(days=n * (7 if rotation["type"] == "weekly" else 1)), zone)

    times = [instant(rotation["start"])]
    while times[-1] <= hi:
        times.append(step(times[-1]))
    return times


def rotation_shifts(rotation, exported, lo, hi):
    users = rotation["userIDs"]
    instants = handoffs(rotation, hi)
    current = max((i for i, t in enumerate(instants) if t <= exported), default=0)
    out = []
    for i in range(len(instants) - 1):
        s, e = instants[i], instants[i + 1]
        if e <= lo or s >= hi or not users:
            continue
        out.append((s, e, users[(rotation.get("activeUserIndex", 0) + i - current) % len(users)]))
    return out


def rule_windows(rules, zone, lo, hi):
    out = []
    day = lo.astimezone(zone).date() - timedelta(days=2)
    last = hi.astimezone(zone).date() + timedelta(days=1)
    while day <= last:
        weekday = (day.isoweekday() % 7)  # Sunday 0
        for rule in rules:
            if not rule["weekdayFilter"][weekday]:
                continue
            sh, sm = (int(x) for x in rule["start"].split(":")[:2])
            eh, em = (int(x) for x in rule["end"].split(":")[:2])
            opens = datetime(day.year, day.month, day.day, sh, sm)
            closes = datetime(day.year, day.month, day.day, eh, em)
            if (eh, em) <= (sh, sm):
                closes += timedelta(days=1)
            out.append((rule_edge(opens, zone, False), rule_edge(closes, zone, True)))
        day += timedelta(days=1)
    return out


def intersect(pieces, windows):
    out = []
    for s, e, who in pieces:
        for ws, we in windows:
            a, b = max(s, ws), min(e, we)
            if a < b:
                out.append((a, b, who))
    return out


def render(export, schedule, lo, hi):
    zone = ZoneInfo(schedule["timeZone"])
    exported = instant(export["exportedAt"])
    rotations = {r["id"]: r for r in export["rotations"]}
    pieces = []
    for target in schedule["targets"]:
        ref = target["target"]
        if ref["type"] == "rotation":
            base = rotation_shifts(rotations[ref["id"]], exported, lo, hi)
        else:
            base = [(lo, hi, ref["id"])]
        pieces += intersect(base, rule_windows(target["rules"], zone, lo, hi))
    overrides = [o for o in export.get("userOverrides", []) if o["target"]["id"] == schedule["id"]]
    cuts = sorted({lo, hi} | {t for s, e, _ in pieces for t in (s, e) if lo < t < hi}
                  | {t for o in overrides for t in (instant(o["start"]), instant(o["end"])) if lo < t < hi})
    shifts = []
    for s, e in zip(cuts, cuts[1:]):
        on = {who for ps, pe, who in pieces if ps <= s and e <= pe}
        for o in overrides:
            if not (instant(o["start"]) <= s and e <= instant(o["end"])):
                continue
            add, remove = o.get("addUserID"), o.get("removeUserID")
            if add and remove:
                if remove in on:
                    on.discard(remove)
                    on.add(add)
            elif add:
                on.add(add)
            elif remove:
                on.discard(remove)
        for who in sorted(on):
            last = next((x for x in reversed(shifts) if x[2] == who), None)
            if last and last[1] == s:
                last[1] = e
            else:
                shifts.append([s, e, who])
    return [{"userID": who, "start": s.isoformat(), "end": e.isoformat()} for s, e, who in shifts]


def main():
    export = json.load(open(sys.argv[1]))
    lo, hi = instant(sys.argv[2]), instant(sys.argv[3])
    schedules = [{"id": s["id"], "name": s["name"], "shifts": render(export, s, lo, hi)} for s in export["schedules"]]
    json.dump({"since": sys.argv[2], "until": sys.argv[3], "schedules": schedules}, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
