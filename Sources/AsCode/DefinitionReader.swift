import Foundation
import RosterDomain
import RosterProtocol
import Yams

/// Walks a definition file's YAML nodes into the wire's document, noting each problem with its
/// line and column and each object's place. Anchors and aliases are refused, so a walk is never
/// longer than the file.
struct DefinitionReader {
    let path: String
    let secret: (SecretReference) -> String?
    var problems: [DefinitionFile.Problem] = []
    var places: [String: DefinitionFile.Place] = [:]

    init(path: String, secret: @escaping (SecretReference) -> String?) {
        (self.path, self.secret) = (path, secret)
    }

    mutating func problem(_ node: Node?, _ message: String) {
        let place = node?.mark.map { DefinitionFile.Place(line: $0.line, column: $0.column) }
        problems.append(DefinitionFile.Problem(path: path, place: place, message: message))
    }

    mutating func note(_ key: String, _ node: Node) {
        if let mark = node.mark { places[key] = DefinitionFile.Place(line: mark.line, column: mark.column) }
    }

    // MARK: - Shapes

    /// The fields of a mapping, by key; unknown keys, repeated keys and non-text keys are problems.
    mutating func fields(_ node: Node, at key: String, allowed: [String], required: [String] = []) -> [String: Node]? {
        guard node.anchor == nil else {
            problem(node, "anchors and aliases (&, *) are not used in roster files: write \(key) out"); return nil
        }
        guard case .mapping(let mapping) = node else {
            problem(node, "\(key) must be a mapping of keys to values"); return nil
        }
        var found: [String: Node] = [:]
        for (keyNode, value) in mapping {
            guard let name = keyNode.scalar?.string else { problem(keyNode, "\(key): a key must be text"); continue }
            guard allowed.contains(name) else {
                let close = allowed.filter {
                    $0.lowercased() == name.lowercased() || $0.hasPrefix(String(name.prefix(3)))
                }
                problem(
                    keyNode,
                    "\(key): unknown key \"\(name)\""
                        + (close.isEmpty
                            ? " (known: \(allowed.joined(separator: ", ")))"
                            : " (did you mean \(close.joined(separator: ", "))?)"))
                continue
            }
            guard found[name] == nil else { problem(keyNode, "\(key): \(name) is given twice"); continue }
            found[name] = value
            note(key + "." + name, keyNode)
        }
        for name in required where found[name] == nil { problem(node, "\(key) needs \(name)") }
        return found
    }

    mutating func list(_ node: Node?, at key: String) -> [Node] {
        guard let node else { return [] }
        guard node.anchor == nil else {
            problem(node, "anchors and aliases (&, *) are not used in roster files: write \(key) out"); return []
        }
        if case .scalar(let scalar) = node, scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null" {
            return []
        }
        guard case .sequence(let sequence) = node else {
            problem(node, "\(key) must be a list (items starting with -)"); return []
        }
        return Array(sequence)
    }

    mutating func text(_ node: Node?, at key: String) -> String {
        guard let node else { return "" }
        guard node.anchor == nil, case .scalar(let scalar) = node else {
            problem(node, "\(key) must be text"); return ""
        }
        return scalar.string
    }

    mutating func texts(_ node: Node?, at key: String) -> [String] {
        list(node, at: key).map { text($0, at: key) }
    }

    mutating func flag(_ node: Node?, at key: String, default value: Bool) -> Bool {
        guard let node else { return value }
        guard case .scalar(let scalar) = node, ["true", "false"].contains(scalar.string) else {
            problem(node, "\(key) must be true or false")
            return value
        }
        return scalar.string == "true"
    }

    mutating func number(_ node: Node?, at key: String, in range: ClosedRange<Int>) -> Int? {
        guard let node else { return nil }
        guard case .scalar(let scalar) = node, let value = Int(scalar.string), range.contains(value) else {
            problem(node, "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return value
    }

    /// An absolute instant: "2026-12-24T09:00:00Z" or with an offset.
    mutating func instant(_ node: Node?, at key: String) -> UnixMillis? {
        guard let node else { return nil }
        let value = text(node, at: key)
        guard let instant = TimeText.parseISO8601(value), TimeRange.supported.contains(instant) else {
            problem(
                node,
                "\(key) \"\(value)\" is not an instant: write e.g. 2026-12-24T09:00:00Z or 2026-12-24T10:00:00+01:00")
            return nil
        }
        return instant
    }

    /// `{env: NAME}` or `{file: PATH}`: the secret is read now and never written back.
    mutating func secretValue(_ node: Node?, at key: String) -> String {
        guard let node else { return "" }
        if case .scalar = node {
            problem(node, "\(key): a secret is never written in the file: name it with {env: VARIABLE} or {file: PATH}")
            return ""
        }
        guard let fields = fields(node, at: key, allowed: ["env", "file"]), fields.count == 1 else {
            problem(node, "\(key): name the secret with {env: VARIABLE} or {file: PATH}, one of them")
            return ""
        }
        let (reference, named): (SecretReference, String) =
            if let env = fields["env"] {
                (.environment(text(env, at: key + ".env")), "environment variable")
            } else {
                (.file(text(fields["file"], at: key + ".file")), "file")
            }
        // ROSTER_* are roster-client's own settings, its token among them: a file handed to
        // `apply` must not be able to send that token to a webhook.
        if case .environment(let name) = reference, name.uppercased().hasPrefix("ROSTER_") {
            problem(
                node,
                "\(key).env: \(name) is one of roster-client's own settings (its token among them) and is never a secret; name another variable"
            )
            return ""
        }
        guard let value = secret(reference)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            let name =
                switch reference {
                case .environment(let n), .file(let n): n
                }
            problem(node, "\(key): the \(named) \(name) is not set or cannot be read")
            return ""
        }
        return value
    }

    // MARK: - The document

    mutating func document(_ root: Node) -> Roster_V1_DefinitionDocument {
        var document = Roster_V1_DefinitionDocument()
        guard
            let top = fields(
                root, at: "the file",
                allowed: [
                    "version", "people", "schedules", "escalationPolicies", "services", "webhooks", "reminders",
                    "announcements",
                ],
                required: ["version"])
        else { return document }
        if let version = top["version"], number(version, at: "version", in: 1...1) == nil {}
        if let people = top["people"] {
            document.managesPeople = true
            document.people = list(people, at: "people").enumerated().compactMap { person($1, at: "people[\($0)]") }
        }
        document.schedules = list(top["schedules"], at: "schedules").enumerated().compactMap {
            schedule($1, at: "schedules[\($0)]")
        }
        if let policies = top["escalationPolicies"] {
            document.managesEscalationPolicies = true
            document.escalationPolicies = list(policies, at: "escalationPolicies").enumerated().compactMap {
                escalationPolicy($1, at: "escalationPolicies[\($0)]")
            }
        }
        if let services = top["services"] {
            document.managesServices = true
            document.services = list(services, at: "services").enumerated().compactMap {
                service($1, at: "services[\($0)]")
            }
        }
        if let webhooks = top["webhooks"] {
            document.managesWebhooks = true
            document.webhooks = list(webhooks, at: "webhooks").enumerated().compactMap {
                webhook($1, at: "webhooks[\($0)]")
            }
        }
        if let reminders = top["reminders"] {
            document.managesReminders = true
            document.reminders = list(reminders, at: "reminders").enumerated().compactMap {
                reminder($1, at: "reminders[\($0)]")
            }
        }
        if let announcements = top["announcements"] {
            document.managesAnnouncements = true
            document.announcements = list(announcements, at: "announcements").enumerated()
                .compactMap { announcement($1, at: "announcements[\($0)]") }
        }
        return document
    }

    mutating func person(_ node: Node, at key: String) -> Roster_V1_Employee? {
        note(key, node)
        guard
            let f = fields(
                node, at: key,
                allowed: [
                    "id", "firstName", "lastName", "email", "phone", "position", "team", "projects",
                    "biography", "photoURL", "type", "chat",
                ],
                required: ["firstName", "lastName"])
        else { return nil }
        var person = Roster_V1_Employee()
        person.id = text(f["id"], at: key + ".id")
        person.firstName = text(f["firstName"], at: key + ".firstName")
        person.lastName = text(f["lastName"], at: key + ".lastName")
        person.email = text(f["email"], at: key + ".email")
        person.phone = text(f["phone"], at: key + ".phone")
        person.position = text(f["position"], at: key + ".position")
        person.team = text(f["team"], at: key + ".team")
        person.projects = texts(f["projects"], at: key + ".projects")
        person.biography = text(f["biography"], at: key + ".biography")
        person.photoURL = text(f["photoURL"], at: key + ".photoURL")
        if let type = f["type"] {
            let name = text(type, at: key + ".type")
            if let known = EmployeeType(rawValue: name) {
                person.type = Roster_V1_EmployeeType(known)
            } else {
                problem(
                    type,
                    "\(key).type: \"\(name)\" is not one of \(EmployeeType.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
        }
        if let chat = f["chat"] {
            if case .mapping(let handles) = chat {
                for (platform, handle) in handles {
                    person.chat[text(platform, at: key + ".chat")] = text(handle, at: key + ".chat")
                }
            } else {
                problem(chat, "\(key).chat must map chat platforms to handles (slack: U012AB3CD)")
            }
        }
        return person
    }

    mutating func schedule(_ node: Node, at key: String) -> Roster_V1_Schedule? {
        note(key, node)
        guard
            let f = fields(
                node, at: key,
                allowed: [
                    "id", "name", "zone", "team", "description", "readersMayVolunteer", "selfService",
                    "layers", "overrides",
                ], required: ["name"])
        else { return nil }
        var schedule = Roster_V1_Schedule()
        schedule.id = text(f["id"], at: key + ".id")
        schedule.name = text(f["name"], at: key + ".name")
        schedule.zone = f["zone"].map { text($0, at: key + ".zone") } ?? "UTC"
        schedule.team = text(f["team"], at: key + ".team")
        schedule.description_p = text(f["description"], at: key + ".description")
        schedule.readersMayVolunteer = flag(f["readersMayVolunteer"], at: key + ".readersMayVolunteer", default: false)
        schedule.selfServiceOff = !flag(f["selfService"], at: key + ".selfService", default: true)
        for (index, layerNode) in list(f["layers"], at: key + ".layers").enumerated() {
            let layerKey = "\(key).layers[\(index)]"
            note(layerKey, layerNode)
            guard let l = fields(layerNode, at: layerKey, allowed: ["level", "rotations"]) else { continue }
            var layer = Roster_V1_ScheduleLayer()
            layer.level = Int32(number(l["level"], at: layerKey + ".level", in: -1_000...1_000) ?? index)
            layer.rotations = list(l["rotations"], at: layerKey + ".rotations").enumerated()
                .compactMap { rotation($1, at: "\(layerKey).rotations[\($0)]") }
            schedule.layers.append(layer)
        }
        schedule.overrides = list(f["overrides"], at: key + ".overrides").enumerated().compactMap {
            override($1, at: "\(key).overrides[\($0)]")
        }
        return schedule
    }
}

extension DefinitionReader {
    mutating func rotation(_ node: Node, at key: String) -> Roster_V1_Rotation? {
        note(key, node)
        guard
            let f = fields(
                node, at: key,
                allowed: [
                    "id", "people", "every", "handoff", "restrictions", "advance", "onTimeOff", "end",
                    "offset", "since",
                ],
                required: ["people", "every", "handoff"])
        else { return nil }
        var slots: [[String]] = []
        for item in list(f["people"], at: key + ".people") {
            // A name is a turn of its own; a list of names is a turn shared by them.
            if case .sequence = item {
                slots.append(texts(item, at: key + ".people"))
            } else {
                slots.append([text(item, at: key + ".people")])
            }
        }
        var rotation = Rotation(
            id: text(f["id"], at: key + ".id"), slots: slots, cadence: .days(1),
            handoff: LocalDateTime(year: 0, month: 1, day: 1))
        if let every = f["every"] {
            do { rotation.cadence = try ScheduleArguments.cadence(text(every, at: key + ".every")) } catch {
                problem(every, "\(key).every: \(error)")
            }
        }
        if let handoff = f["handoff"] {
            do { rotation.handoff = try ScheduleArguments.handoff(text(handoff, at: key + ".handoff")) } catch {
                problem(handoff, "\(key).handoff: \(error)")
            }
        }
        for item in list(f["restrictions"], at: key + ".restrictions") {
            do {
                rotation.restrictions.append(try ScheduleArguments.restriction(text(item, at: key + ".restrictions")))
            } catch {
                problem(item, "\(key).restrictions: \(error)")
            }
        }
        if let advance = f["advance"] {
            let name = text(advance, at: key + ".advance")
            if let known = Rotation.Advance(rawValue: name) {
                rotation.advance = known
            } else {
                problem(advance, "\(key).advance is active-turns or calendar")
            }
        }
        if let policy = f["onTimeOff"] {
            let name = text(policy, at: key + ".onTimeOff")
            if let known = Rotation.TimeOffPolicy(rawValue: name) {
                rotation.onTimeOff = known
            } else {
                problem(policy, "\(key).onTimeOff is flag or skip")
            }
        }
        rotation.end = instant(f["end"], at: key + ".end")
        rotation.since = instant(f["since"], at: key + ".since")
        rotation.slotOffset = number(f["offset"], at: key + ".offset", in: 0...10_000) ?? 0
        return Roster_V1_Rotation(rotation)
    }

    mutating func override(_ node: Node, at key: String) -> Roster_V1_ScheduleOverride? {
        note(key, node)
        guard
            let f = fields(
                node, at: key, allowed: ["id", "replace", "with", "add", "remove", "from", "to", "reason"],
                required: ["from", "to"])
        else { return nil }
        var override = Roster_V1_ScheduleOverride()
        override.id = text(f["id"], at: key + ".id")
        switch (f["replace"], f["with"], f["add"], f["remove"]) {
        case (let replaced?, let with?, nil, nil):
            (override.kind, override.replacedEmployeeID, override.employeeID) = (
                .replace, text(replaced, at: key + ".replace"), text(with, at: key + ".with")
            )
        case (nil, nil, let added?, nil): (override.kind, override.employeeID) = (.add, text(added, at: key + ".add"))
        case (nil, nil, nil, let removed?):
            (override.kind, override.employeeID) = (.remove, text(removed, at: key + ".remove"))
        default: problem(node, "\(key) is one of: replace and with, add, or remove")
        }
        override.startMs = instant(f["from"], at: key + ".from") ?? 0
        override.endMs = instant(f["to"], at: key + ".to") ?? 0
        override.reason = text(f["reason"], at: key + ".reason")
        return override
    }
}
