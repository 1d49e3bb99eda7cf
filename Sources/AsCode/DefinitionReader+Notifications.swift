import Foundation
import RosterDomain
import RosterProtocol
import Yams

// The notification side of a definition file: webhooks, reminders and announcements.
extension DefinitionReader {
    mutating func webhook(_ node: Node, at key: String) -> Roster_V1_Webhook? {
        note(key, node)
        guard
            let f = fields(
                node, at: key, allowed: ["id", "url", "format", "events", "schedules", "secret"], required: ["url"])
        else { return nil }
        var webhook = Roster_V1_Webhook()
        webhook.id = text(f["id"], at: key + ".id")
        webhook.url = text(f["url"], at: key + ".url")
        webhook.format = f["format"].map { text($0, at: key + ".format") } ?? "json"
        webhook.events = texts(f["events"], at: key + ".events")
        webhook.schedules = texts(f["schedules"], at: key + ".schedules")
        webhook.accessToken = secretValue(f["secret"], at: key + ".secret")
        return webhook
    }

    mutating func reminder(_ node: Node, at key: String) -> Roster_V1_ReminderRule? {
        note(key, node)
        guard
            let f = fields(node, at: key, allowed: ["id", "schedule", "person", "before", "daysBefore", "at", "zone"])
        else { return nil }
        var rule = Roster_V1_ReminderRule()
        rule.id = text(f["id"], at: key + ".id")
        rule.schedule = text(f["schedule"], at: key + ".schedule")
        rule.person = text(f["person"], at: key + ".person")
        rule.timeZone = text(f["zone"], at: key + ".zone")
        switch (f["before"], f["daysBefore"], f["at"]) {
        case (let before?, nil, nil):
            let words = text(before, at: key + ".before")
            if let lead = DurationText.parse(words, within: .seconds(7 * 86_400)), lead.milliseconds % 60_000 == 0 {
                rule.leadMinutes = lead.milliseconds / 60_000
            } else {
                problem(
                    before,
                    "\(key).before \"\(words)\" is a whole number of minutes, hours or days up to 7 days: 15m, 1h, 1d")
            }
        case (nil, let days?, let at?):
            rule.daysBefore = UInt32(number(days, at: key + ".daysBefore", in: 1...7) ?? 1)
            let time = text(at, at: key + ".at")
            if let minute = RestrictionWindow.minuteOfDay(time), minute < 1440 {
                rule.atMinuteOfDay = UInt32(minute)
            } else {
                problem(at, "\(key).at is a local time, HH:MM")
            }
        default: problem(node, "\(key) has either before (e.g. 15m) or daysBefore and at (e.g. 1 and 18:00)")
        }
        return rule
    }

    mutating func announcement(_ node: Node, at key: String) -> Roster_V1_AnnounceRule? {
        note(key, node)
        guard
            let f = fields(
                node, at: key, allowed: ["id", "schedule", "webhook", "onChange", "at", "weekdays"],
                required: ["schedule", "webhook"])
        else { return nil }
        var rule = Roster_V1_AnnounceRule()
        rule.id = text(f["id"], at: key + ".id")
        rule.schedule = text(f["schedule"], at: key + ".schedule")
        rule.webhook = text(f["webhook"], at: key + ".webhook")
        rule.onChange = flag(f["onChange"], at: key + ".onChange", default: false)
        rule.at = text(f["at"], at: key + ".at")
        rule.weekdays = text(f["weekdays"], at: key + ".weekdays")
        if rule.onChange, !rule.at.isEmpty { problem(node, "\(key) is either onChange: true or at a time, not both") }
        if !rule.onChange && rule.at.isEmpty { problem(node, "\(key) needs onChange: true or at: \"09:00\"") }
        return rule
    }
}
