import Foundation
import RosterClient
import RosterDomain
import RosterProtocol

// oncall --service and escalation show: whom a page reaches at each step (docs/ESCALATION.md).

extension CommandRunner {
    /// `oncall --service NAME [--at T] [--simulate]` (or `--policy`): each step's people, from
    /// the server, else from the cache with its age said.
    public func escalation(_ query: EscalationQuery, offline: Bool) async -> ClientExitCode {
        await withCacheFallback(
            offline: offline,
            online: {
                let answer = try await client.escalation(query)
                await refreshCacheQuietly()
                let names = await client.roster?.state.schedules
                printEscalation(answer, scheduleName: { names?[$0]?.name ?? $0 })
                return .success
            },
            cached: { roster in
                do {
                    let answer = try roster.escalation(query, now: .now)
                    printEscalation(answer, scheduleName: { roster.state.schedules[$0]?.name ?? $0 })
                    return .success
                } catch {
                    return report(error)
                }
            })
    }

    /// `escalation show NAME`: a service's or a policy's steps as written, then who each pages now.
    public func escalationShow(_ name: String) async -> ClientExitCode {
        await withCacheFallback(
            online: {
                let state = try await client.refreshCache().state
                return showEscalation(name, state: state)
            },
            cached: { roster in showEscalation(name, state: roster.state) })
    }

    private func showEscalation(_ name: String, state: RosterState) -> ClientExitCode {
        let service = state.escalation.service(idOrName: name)
        guard
            let policy = service.flatMap({ state.escalation.policies[$0.policyID] })
                ?? state.escalation.policy(idOrName: name)
        else {
            let known = state.escalation.sortedServices.map(\.name) + state.escalation.sortedPolicies.map(\.name)
            Self.err(
                "No service or escalation policy \"\(name)\"."
                    + (known.isEmpty ? " This tenant has none." : " Known: \(known.joined(separator: ", ")).")
            )
            return .notFound
        }
        let query = EscalationQuery(policy: policy.id)
        guard
            let answer = try? EscalationAnswer.answer(
                query.wire(), state: state, epoch: 0, revision: 0, now: .now,
                onDuty: { state.onDuty(of: $0, at: $1) }
            ).get()
        else { return .failure }
        if json {
            Self.out(
                String(
                    decoding: EscalationJSON.data(
                        EscalationJSON.answer(answer, scheduleName: { state.schedules[$0]?.name ?? $0 })),
                    as: UTF8.self))
            return .success
        }
        if let service {
            Self.out("Service \(service.name)" + (service.team.isEmpty ? "" : " (team \(service.team))"))
            if !service.description.isEmpty { Self.out("  \(service.description)") }
            for link in service.links { Self.out("  \(link.title): \(link.url)") }
        }
        Self.out(
            "Escalation policy \(policy.name)" + (policy.team.isEmpty ? "" : " (team \(policy.team))")
                + (policy.repeatCount == 0
                    ? "" : ", repeated \(policy.repeatCount) more time\(policy.repeatCount == 1 ? "" : "s")"))
        var table = TextTable(["STEP", "TARGETS", "HOW", "THEN WAITS", "PAGES NOW"])
        for (index, step) in policy.steps.enumerated() {
            let targets = step.targets.map { target in
                switch target {
                case .person(let id): state.employees[id]?.fullName ?? id
                case .schedule(let id): "schedule " + (state.schedules[id]?.name ?? id)
                case .team(let team): "team " + team
                }
            }
            let now = answer.steps.first { $0.index == index }?.people.map(Self.fullName) ?? []
            table.rows.append([
                String(index + 1), targets.joined(separator: ", "),
                step.strategy == .roundRobin ? "in turn" : "everyone",
                "\(step.delayMinutes) min", now.isEmpty ? "nobody" : now.joined(separator: ", "),
            ])
        }
        Self.out(table.render())
        return .success
    }

    func printEscalation(_ answer: Roster_V1_EscalationResponse, scheduleName: (String) -> String) {
        let shaped = EscalationJSON.answer(answer, scheduleName: scheduleName)
        if json {
            Self.out(String(decoding: EscalationJSON.data(shaped), as: UTF8.self))
            return
        }
        let subject = answer.hasService ? "\(answer.service.name) (policy \(answer.policy.name))" : answer.policy.name
        // At one instant every step is resolved then; a timeline gives each step its own.
        let timeline = Set(answer.steps.map(\.atMs)).count > 1
        Self.out(
            timeline
                ? "\(subject), a page from \(display.dateTime(answer.atMs)) \(display.zoneName), step after step:"
                : "\(subject): each step if the page reached it at \(display.dateTime(answer.atMs)) \(display.zoneName):"
        )
        var table = TextTable(["STEP", "AT (\(display.zoneName))", "PAGES", "HOW", "FROM", "UNTIL"])
        for step in answer.steps {
            let label = String(step.index + 1) + (step.round > 0 ? " (again \(step.round))" : "")
            let how = step.strategy == .strategyRoundRobin ? "in turn" : "everyone"
            let until = step.hasUntilMs ? display.dateTime(step.untilMs) : ""
            if step.people.isEmpty {
                table.rows.append([label, display.dateTime(step.atMs), "nobody", how, "", until])
            }
            for (row, person) in step.people.enumerated() {
                table.rows.append([
                    row == 0 ? label : "", row == 0 ? display.dateTime(step.atMs) : "", Self.fullName(person),
                    row == 0 ? how : "", person.scheduleID.isEmpty ? "named" : scheduleName(person.scheduleID),
                    row == 0 ? until : "",
                ])
            }
        }
        if !timeline {
            table.headers.remove(at: 1)
            for row in table.rows.indices { table.rows[row].remove(at: 1) }
        }
        Self.out(table.render())
        for warning in shaped.warnings {
            Self.err("Warning: " + warning.prefix(1).uppercased() + warning.dropFirst() + ".")
        }
    }

    static func fullName(_ person: Roster_V1_EscalatedPerson) -> String {
        let name = "\(person.employee.firstName) \(person.employee.lastName)".trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? person.employee.id : name
    }
}

extension CommandRunner {
    /// `watch --service NAME` (or `--policy`): whom a page would reach now, then a line for each
    /// change, with its cause and the steps that changed; JSON lines with --json or off a terminal.
    public func watchEscalation(services: [String], policies: [String]) async -> ClientExitCode {
        // Schedules by name, not id: from the cache, filled first when it is empty.
        if await client.roster == nil { await refreshCacheQuietly() }
        let names = await client.roster?.state.schedules
        let updates = await client.escalationUpdates(services: services, policies: policies)
        // Ctrl-C or SIGTERM ends the iteration, which ends the stream and its connection.
        let server = settings.server
        let watching = Task { () -> (any Error)? in
            do {
                // An outage is said once on stderr, and its end when the server answers again.
                var lost = false
                for try await update in updates {
                    switch update {
                    case .changed(let event):
                        if lost { Self.err("Connected to \(server) again.") }
                        lost = false
                        printEscalationChange(event, scheduleName: { names?[$0]?.name ?? $0 })
                    case .disconnected(let reason):
                        if !lost { Self.err("No connection to \(server) (\(reason)): trying again every 2 s.") }
                        lost = true
                    }
                }
                return nil
            } catch {
                return error
            }
        }
        let stopper = SignalStopper { watching.cancel() }
        defer { stopper.cancel() }
        return await watching.value.map { report($0) } ?? .success
    }

    func printEscalationChange(_ event: Roster_V1_EscalationChanged, scheduleName: (String) -> String) {
        let cause =
            switch event.cause {
            case .escalationInitial: "now"
            case .escalationHandoff: "handoff"
            case .escalationPlanChanged: "plan changed"
            case .escalationPolicyChanged: "policy changed"
            case .escalationClockJump: "clock set"
            default: "changed"
            }
        if json {
            struct Line: Encodable {
                var event = "escalation"
                var cause: String
                var removed: Bool
                var changedSteps: [Int]
                var answer: EscalationJSON.Answer
            }
            var response = Roster_V1_EscalationResponse()
            (response.epoch, response.revision, response.atMs) = (event.epoch, event.revision, event.atMs)
            (response.policy, response.steps) = (event.policy, event.steps)
            if let service = event.services.first { response.service = service }
            let line = Line(
                cause: cause, removed: event.removed, changedSteps: event.changedSteps.map { Int($0) + 1 },
                answer: EscalationJSON.answer(response, scheduleName: scheduleName))
            Self.out(JSONShapes.line(line))
            return
        }
        let services = event.services.map(\.name).joined(separator: ", ")
        let subject = services.isEmpty ? event.policy.name : "\(services) (policy \(event.policy.name))"
        if event.removed {
            Self.out("\(display.dateTime(.now)) \(event.policy.id): removed")
            return
        }
        let steps = event.steps.map { step in
            let people = step.people.map { person in
                let name = Self.fullName(person)
                return person.scheduleID.isEmpty ? name : "\(name) (\(scheduleName(person.scheduleID)))"
            }
            let mark = event.cause != .escalationInitial && event.changedSteps.contains(step.index) ? "*" : ""
            return "\(mark)\(step.index + 1) " + (people.isEmpty ? "nobody" : people.joined(separator: ", "))
        }
        Self.out("\(display.dateTime(event.atMs)) \(subject), \(cause): " + steps.joined(separator: "; "))
    }
}
