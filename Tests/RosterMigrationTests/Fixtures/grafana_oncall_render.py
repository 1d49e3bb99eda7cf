#!/usr/bin/env python3
"""Grafana OnCall's final shifts, rendered from an export by the rules its own shift tests state.

A separate implementation (Python's zoneinfo, none of Roster's code) of how Grafana OnCall's
rolling-users shifts run, as engine/apps/schedules/tests/custom_shift_test_cases.py states it,
used to write docs/examples/grafana-oncall-final-shifts.json:

- each event starts at the shift's time of day (in its time_zone, else the schedule's) and lasts
  `duration`; with by_day, on those days;
- daily: the active days (those of by_day, or every day) from the start, `interval` of them per
  group in turn;
- weekly with by_day: weeks from week_start; the group of week w is w / interval when w is a
  multiple of interval, nobody otherwise; without by_day: one event a week from the start;
- monthly (by_day): a group a calendar month, the next `interval` months later, nobody between;
- the highest level with anyone on call wins; shifts of one level add up; an override shift puts
  its users (one or several, together) alone on the schedule.

Usage: grafana_oncall_render.py EXPORT SINCE UNTIL > FINAL_SHIFTS.json
"""
import json
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

UTC = timezone.utc
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def local_start(shift, zone):
    text = shift["start"]
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        return parsed
    return parsed.astimezone(zone).replace(tzinfo=None)


def events(shift, zone, hi):
    """(start, end, users) of every event until `hi`."""
    start = local_start(shift, zone)
    duration = timedelta(seconds=shift["duration"])
    groups = shift.get("rolling_users") or [shift.get("users", [])]
    interval = shift.get("interval") or 1
    offset = shift.get("start_rotation_from_user_index") or 0
    by_day = shift.get("by_day")
    frequency = shift["frequency"]
    until = instant(shift["until"]) if shift.get("until") else hi
    out = []

    def add(day_start, group_index):
        s = day_start.replace(tzinfo=zone, fold=0).astimezone(UTC)
        e = (day_start + duration).replace(tzinfo=zone, fold=0).astimezone(UTC)
        if s < min(hi, until) and group_index is not None:
            out.append((s, e, groups[(group_index + offset) % len(groups)]))

    if frequency == "weekly" and not by_day:
        k = 0
        while (start + timedelta(weeks=k)).replace(tzinfo=zone).astimezone(UTC) < hi:
            add(start + timedelta(weeks=k), k // interval if k % interval == 0 else None)
            k += 1
        return out
    day, active = start, 0
    week_start = DAYS.index(shift.get("week_start", "SU"))
    first_week = start.date() - timedelta(days=(start.weekday() - week_start) % 7)
    while day.replace(tzinfo=zone).astimezone(UTC) < hi:
        if by_day is None or DAYS[day.weekday()] in by_day:
            if frequency == "daily":
                add(day, active // interval)
            elif frequency == "weekly":
                w = (day.date() - first_week).days // 7
                add(day, w // interval if w % interval == 0 else None)
            elif frequency == "monthly":
                m = (day.year - start.year) * 12 + day.month - start.month
                add(day, m // interval if m % interval == 0 else None)
            active += 1
        day += timedelta(days=1)
    return out


def render(export, schedule, lo, hi):
    shifts = {s["id"]: s for s in export["on_call_shifts"]}
    zone = ZoneInfo(schedule["time_zone"])
    layers, overrides = {}, []
    for sid in schedule["shifts"]:
        shift = shifts[sid]
        shift_zone = ZoneInfo(shift["time_zone"]) if shift.get("time_zone") else zone
        if shift["type"] == "override":
            s = local_start(shift, shift_zone).replace(tzinfo=shift_zone).astimezone(UTC)
            who = {u for group in (shift.get("rolling_users") or [shift.get("users")]) for u in group}
            overrides.append((s, s + timedelta(seconds=shift["duration"]), who))
            continue
        layers.setdefault(shift.get("level", 0), []).extend(events(shift, shift_zone, hi))
    cuts = sorted({lo, hi} | {t for pieces in list(layers.values()) + [overrides] for s, e, _ in pieces
                              for t in (s, e) if lo < t < hi})
    final = []
    for s, e in zip(cuts, cuts[1:]):
        on = set()
        for level in sorted(layers, reverse=True):
            on = {u for ps, pe, group in layers[level] if ps <= s and e <= pe for u in group}
            if on:
                break
        for os_, oe, who in overrides:
            if os_ <= s and e <= oe:
                on = set(who)
        for who in sorted(on):
            last = next((x for x in reversed(final) if x[2] == who), None)
            if last and last[1] == s:
                last[1] = e
            else:
                final.append([s, e, who])
    return {"id": schedule["id"], "name": schedule["name"], "final_shifts": [
        {"user_pk": who, "shift_start": s.isoformat(), "shift_end": e.isoformat()} for s, e, who in final]}


export = json.load(open(sys.argv[1]))
lo, hi = instant(sys.argv[2]), instant(sys.argv[3])
json.dump({"since": sys.argv[2], "until": sys.argv[3],
           "schedules": [render(export, s, lo, hi) for s in export["schedules"]]}, sys.stdout, indent=1)
sys.stdout.write("\n")
