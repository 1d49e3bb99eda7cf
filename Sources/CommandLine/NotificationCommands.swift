import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import SwiftProtobuf

/// `admin webhook ...` and `admin reminder ...`: text for people, or with --json one JSON object
/// per line (the wire message in protobuf's JSON mapping).
extension CommandRunner {
    public func addWebhook(
        url: String, events: [String], schedules: [String], format: String = "json", accessToken: String = "",
        reason: String = ""
    ) async -> ClientExitCode {
        await run {
            let (webhook, secret) = try await client.addWebhook(
                url: url, events: events, schedules: schedules, format: format,
                accessToken: accessToken, reason: reason)
            if json {
                var line = try webhook.jsonString()
                if !secret.isEmpty {
                    line.removeLast()
                    line += ",\"secret\":\"\(secret)\"}"
                }
                Self.out(line)
                return
            }
            let names = await scheduleNames()
            Self.out(
                "Added webhook \(webhook.id) → \(webhook.url)"
                    + (webhook.format.isEmpty || webhook.format == "json" ? "" : " (\(webhook.format))"))
            Self.out(
                "Events: \(webhook.events.isEmpty ? "all" : webhook.events.joined(separator: ", "))"
                    + (webhook.schedules.isEmpty
                        ? "" : "; schedules: \(webhook.schedules.map { names[$0] ?? $0 }.joined(separator: ", "))"))
            if secret.isEmpty {
                Self.out(
                    "Posts go to the chat as messages (docs/CHAT.md); `admin announce add --webhook \(webhook.id)` posts who is on call."
                )
            } else {
                Self.out("Signing secret (shown only now; verify Roster-Signature with it, docs/NOTIFICATIONS.md):")
                Self.out(secret)
            }
        }
    }

    public func listWebhooks() async -> ClientExitCode {
        await run {
            let webhooks = try await client.webhooks()
            if json { return try webhooks.forEach { Self.out(try $0.jsonString()) } }
            guard !webhooks.isEmpty else { return Self.out("No webhooks.") }
            let names = await scheduleNames()
            for webhook in webhooks {
                var line = "\(webhook.id)  \(webhook.url)"
                if !webhook.format.isEmpty && webhook.format != "json" { line += "  format: \(webhook.format)" }
                line += "  events: \(webhook.events.isEmpty ? "all" : webhook.events.joined(separator: ","))"
                if !webhook.schedules.isEmpty {
                    line += "  schedules: \(webhook.schedules.map { names[$0] ?? $0 }.joined(separator: ", "))"
                }
                line += "  pending: \(webhook.pending)"
                if webhook.disabledMs != 0 {
                    line +=
                        "\n    DISABLED at \(display.dateTimeSeconds(webhook.disabledMs)): \(webhook.disabledReason)"
                } else if webhook.failingSinceMs != 0 {
                    line += "\n    failing since \(display.dateTimeSeconds(webhook.failingSinceMs)) (retrying)"
                }
                Self.out(line)
            }
        }
    }

    public func removeWebhook(id: String, reason: String = "") async -> ClientExitCode {
        await run {
            try await client.removeWebhook(id: id, reason: reason)
            if !json { Self.out("Removed webhook \(id).") }
        }
    }

    public func testWebhook(id: String) async -> ClientExitCode {
        await run {
            let event = try await client.testWebhook(id: id)
            Self.out(
                json
                    ? "{\"eventId\":\"\(event)\"}"
                    : "Queued ping \(event): `roster-client admin webhook deliveries \(id)` shows the attempt.")
        }
    }

    public func webhookDeliveries(id: String?, limit: Int) async -> ClientExitCode {
        await run {
            let attempts = try await client.webhookDeliveries(webhookID: id, limit: limit)
            if json { return try attempts.forEach { Self.out(try $0.jsonString()) } }
            guard !attempts.isEmpty else { return Self.out("No delivery attempts yet.") }
            for attempt in attempts {
                let outcome = attempt.status == 0 ? "no response" : "HTTP \(attempt.status)"
                var line =
                    "\(display.dateTimeSeconds(attempt.atMs))  \(attempt.webhookID)  \(attempt.eventType)  \(attempt.eventID)"
                line += "  attempt \(attempt.attempt)  \(outcome)  \(attempt.durationMs) ms"
                if !attempt.error.isEmpty && attempt.status == 0 { line += "  (\(attempt.error))" }
                Self.out(line)
            }
        }
    }

    public func addReminder(_ rule: Roster_V1_ReminderRule, reason: String = "") async -> ClientExitCode {
        await run {
            let made = try await client.addReminder(rule, reason: reason)
            Self.out(
                json
                    ? try made.jsonString()
                    : "Added reminder \(made.id): \(await describe(made, names: scheduleNames())).")
        }
    }

    public func listReminders() async -> ClientExitCode {
        await run {
            let rules = try await client.reminders()
            if json { return try rules.forEach { Self.out(try $0.jsonString()) } }
            guard !rules.isEmpty else { return Self.out("No reminders.") }
            let names = await scheduleNames()
            for rule in rules { Self.out("\(rule.id)  \(await describe(rule, names: names))") }
        }
    }

    public func removeReminder(id: String, reason: String = "") async -> ClientExitCode {
        await run {
            try await client.removeReminder(id: id, reason: reason)
            if !json { Self.out("Removed reminder \(id).") }
        }
    }

    /// A reminder in words, its schedule and person by name (ids when the server does not know them).
    func describe(_ rule: Roster_V1_ReminderRule, names: [String: String]) async -> String {
        let person = rule.person.isEmpty ? nil : (try? await client.employee(rule.person))?.employee.fullName
        return rule.sentence(scheduleName: names[rule.schedule], personName: person)
    }

    /// Schedule names by id, for lines that would otherwise show ids; empty when they cannot be read.
    func scheduleNames() async -> [String: String] {
        guard let schedules = try? await client.schedules() else { return [:] }
        return Dictionary(schedules.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    func run(_ body: () async throws -> Void) async -> ClientExitCode {
        do {
            try await body()
            return .success
        } catch {
            return report(error)
        }
    }
}
