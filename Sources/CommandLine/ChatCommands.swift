import Foundation
import RosterClient
import RosterProtocol
import SwiftProtobuf

/// `admin announce ...` and `admin chat ...` (docs/CHAT.md): text for people, or with --json one
/// JSON object per line.
extension CommandRunner {
    public func addAnnouncement(_ rule: Roster_V1_AnnounceRule, reason: String = "") async -> ClientExitCode {
        await run {
            let made = try await client.addAnnouncement(rule, reason: reason)
            Self.out(
                json
                    ? try made.jsonString()
                    : "Added announcement \(made.id): \(describe(made, names: await scheduleNames())).")
        }
    }

    public func listAnnouncements() async -> ClientExitCode {
        await run {
            let rules = try await client.announcements()
            if json { return try rules.forEach { Self.out(try $0.jsonString()) } }
            guard !rules.isEmpty else { return Self.out("No announcements.") }
            let names = await scheduleNames()
            for rule in rules { Self.out("\(rule.id)  \(describe(rule, names: names))") }
        }
    }

    public func removeAnnouncement(id: String, reason: String = "") async -> ClientExitCode {
        await run {
            try await client.removeAnnouncement(id: id, reason: reason)
            if !json { Self.out("Removed announcement \(id).") }
        }
    }

    public func setChatCommand(platform: String, secret: String, reason: String = "") async -> ClientExitCode {
        await run {
            let platforms = try await client.setChatCommand(platform: platform, secret: secret, reason: reason)
            if json { return Self.out("{\"chatCommands\":[\(platforms.map { "\"\($0)\"" }.joined(separator: ","))]}") }
            Self.out(
                secret.isEmpty
                    ? "The \(platform) slash command is off."
                    : "The \(platform) slash command is set up: point it at POST /v1/chat/\(platform)/command (docs/CHAT.md)."
            )
        }
    }

    public func listChatCommands() async -> ClientExitCode {
        await run {
            let platforms = try await client.chatCommands()
            if json { return Self.out("{\"chatCommands\":[\(platforms.map { "\"\($0)\"" }.joined(separator: ","))]}") }
            Self.out(
                platforms.isEmpty
                    ? "No slash commands are set up." : "Slash commands set up: \(platforms.joined(separator: ", ")).")
        }
    }

    /// "Platform primary → whk_… on every change", "… at Mon 09:00".
    private func describe(_ rule: Roster_V1_AnnounceRule, names: [String: String]) -> String {
        let when =
            rule.onChange
            ? "on every change of who is on duty"
            : "at \(rule.at)" + (rule.weekdays.isEmpty ? "" : " on \(rule.weekdays)") + " (the schedule's time zone)"
        return "\(names[rule.schedule] ?? rule.schedule) → webhook \(rule.webhook) \(when)"
    }
}
