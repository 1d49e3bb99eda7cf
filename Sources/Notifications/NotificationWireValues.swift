import Foundation
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore

// Webhooks, deliveries and rules between the store and the wire: read from a request with
// each field checked, and written into answers.

extension Roster_V1_Webhook {
    init(_ webhook: StoredWebhook) {
        self.init()
        id = webhook.id
        url = WebhookClient.redacted(webhook.url)
        events = webhook.events
        schedules = webhook.schedules
        createdMs = webhook.created
        disabledMs = webhook.disabledAt ?? 0
        disabledReason = webhook.disabledReason
        failingSinceMs = webhook.failingSince ?? 0
        pending = UInt32(clamping: webhook.pending)
        format = webhook.format.rawValue
    }
}

extension Roster_V1_WebhookDelivery {
    init(_ attempt: DeliveryAttempt) {
        self.init()
        deliveryID = "\(attempt.eventID).\(attempt.webhookID)"
        eventID = attempt.eventID
        eventType = attempt.eventType
        webhookID = attempt.webhookID
        self.attempt = UInt32(clamping: attempt.attempt)
        atMs = attempt.at
        status = UInt32(clamping: attempt.status ?? 0)
        error = attempt.error
        durationMs = UInt32(clamping: attempt.durationMillis)
    }
}

extension Roster_V1_ReminderRule {
    init(_ rule: ReminderRule) {
        self.init()
        id = rule.id
        schedule = rule.scheduleID
        person = rule.personID
        timeZone = rule.zone
        switch rule.timing {
        case .lead(let minutes): leadMinutes = Int64(minutes)
        case .daysBefore(let days, let minute):
            daysBefore = UInt32(days)
            atMinuteOfDay = UInt32(minute)
        }
    }
}

extension ReminderRule {
    /// A rule from the wire, its schedule and person resolved by id or name.
    static func make(_ wire: Roster_V1_ReminderRule, id: String, state: RosterState) -> Result<ReminderRule, WireError>
    {
        var scheduleID = "", personID = ""
        if !wire.schedule.isEmpty {
            guard let schedule = state.schedule(idOrName: wire.schedule) else {
                return .failure(WireError(.notFound, "no schedule \(wire.schedule)"))
            }
            scheduleID = schedule.id
        }
        if !wire.person.isEmpty {
            guard let person = state.employee(idOrName: wire.person) else {
                return .failure(WireError(.notFound, "no employee \(wire.person)"))
            }
            personID = person.id
        }
        if !wire.timeZone.isEmpty && WallClock(zone: wire.timeZone) == nil {
            return .failure(WireError(.invalidArgument, "unknown time zone \(wire.timeZone)"))
        }
        let timing: Timing
        if wire.leadMinutes > 0 && wire.daysBefore == 0 {
            guard wire.leadMinutes <= 7 * 1440 else {
                return .failure(WireError(.invalidArgument, "a reminder comes at most 7 days ahead"))
            }
            timing = .lead(minutes: Int(wire.leadMinutes))
        } else if wire.daysBefore > 0 && wire.leadMinutes == 0 {
            guard wire.daysBefore <= 7, wire.atMinuteOfDay < 1440 else {
                return .failure(WireError(.invalidArgument, "days before is 1 to 7, at a time of day before 24:00"))
            }
            timing = .daysBefore(days: Int(wire.daysBefore), minuteOfDay: Int(wire.atMinuteOfDay))
        } else {
            return .failure(
                WireError(.invalidArgument, "a reminder has either a lead time or days before and a time of day"))
        }
        return .success(
            ReminderRule(id: id, scheduleID: scheduleID, personID: personID, timing: timing, zone: wire.timeZone))
    }
}

extension Roster_V1_AnnounceRule {
    init(_ rule: AnnounceRule) {
        self.init()
        id = rule.id
        schedule = rule.scheduleID
        webhook = rule.webhookID
        switch rule.trigger {
        case .change: onChange = true
        case .at(let minute, let days):
            at = RestrictionWindow.clockText(minute)
            weekdays = days.isEmpty || days.count == 7 ? "" : WeekdayList.text(days)
        }
    }
}

extension AnnounceRule {
    /// A rule from the wire: its schedule by id or name, its webhook by id, and its time read
    /// by the one reader of "Mon 09:00" / "09:00" with "Mon-Fri".
    static func make(_ wire: Roster_V1_AnnounceRule, id: String, state: RosterState, webhooks: [StoredWebhook])
        -> Result<AnnounceRule, WireError>
    {
        guard let schedule = state.schedule(idOrName: wire.schedule) else {
            return .failure(WireError(.notFound, "no schedule \(wire.schedule)"))
        }
        guard webhooks.contains(where: { $0.id == wire.webhook }) else {
            return .failure(WireError(.notFound, "no webhook \(wire.webhook)"))
        }
        if wire.onChange {
            guard wire.at.isEmpty, wire.weekdays.isEmpty else {
                return .failure(
                    WireError(.invalidArgument, "an announcement is either on change or at a time, not both"))
            }
            return .success(AnnounceRule(id: id, scheduleID: schedule.id, webhookID: wire.webhook, trigger: .change))
        }
        switch Trigger.parse(at: wire.at, weekdays: wire.weekdays) {
        case .success(let trigger):
            return .success(AnnounceRule(id: id, scheduleID: schedule.id, webhookID: wire.webhook, trigger: trigger))
        case .failure(let error): return .failure(error)
        }
    }
}

extension AnnounceRule.Trigger {
    /// "09:00" (every day, or on `weekdays` such as "Mon-Fri") or "Mon 09:00" / "Mon,Thu 09:00";
    /// a local time before 24:00.
    static func parse(at: String, weekdays: String) -> Result<Self, WireError> {
        let parts = at.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard (1...2).contains(parts.count), let minute = RestrictionWindow.minuteOfDay(parts.last!), minute < 1440
        else {
            return .failure(
                WireError(
                    .invalidArgument,
                    "--at takes a local time, HH:MM, optionally after weekdays: \"09:00\", \"Mon 09:00\" (not \"\(at)\")"
                ))
        }
        var days = Set<Int>()
        if parts.count == 2 {
            guard weekdays.isEmpty else {
                return .failure(WireError(.invalidArgument, "give the weekdays in --at or in --weekdays, not both"))
            }
            guard let named = WeekdayList.parse(parts[0]) else {
                return .failure(
                    WireError(.invalidArgument, "\"\(parts[0])\" is not a weekday or a list of them (Mon-Fri, Mon,Thu)")
                )
            }
            days = named
        } else if !weekdays.isEmpty {
            guard let named = WeekdayList.parse(weekdays) else {
                return .failure(
                    WireError(
                        .invalidArgument, "--weekdays \"\(weekdays)\" is not a list of weekdays (Mon-Fri, Mon,Thu)"))
            }
            days = named
        }
        return .success(.at(minuteOfDay: minute, weekdays: days.count == 7 ? Set<Int>() : days))
    }
}
