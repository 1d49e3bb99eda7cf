import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
@testable import RosterServer
@testable import RosterServerCore
import RosterStore
import RosterStoreSQLite
import RosterTestSupport
import Testing

/// The audit log through a real server and store: who changed what, when, from where and why.
@Suite(.timeLimit(.minutes(10))) struct AuditTests {
    static func audit(_ connection: RosterConnection, _ request: Roster_V1_GetAuditRequest = .init()) async throws
        -> Roster_V1_AuditResponse
    {
        let answer = try await connection.request(.getAudit(request))
        guard case .audit(let body) = answer else { throw TestFailure("expected Audit, got \(answer)") }
        return body
    }

    @Test func everyChangeRecordsTheTokenTheAddressTheValuesBeforeAndAfterAndTheReason() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace", team: "Core")
            harness.clock.advance(to: t0 + minute)
            let update = try await admin.admin(
                .upsertEmployee(
                    .with {
                        $0.employee = .with {
                            $0.id = ada; $0.firstName = "Ada"; $0.lastName = "Lovelace"; $0.team = "Platform";
                            $0.position = "Engineer"
                        }
                        $0.reason = "moved to Platform"
                    }))
            try await admin.admin(
                .setMotd(
                    .with {
                        $0.motd = "Freeze from Friday"; $0.reason = "release freeze"
                    }))
            let entries = try await Self.audit(admin).entries.filter { $0.kind == "change" }
            #expect(entries.map(\.revision) == [1, 2, 3], "one entry per revision, oldest first")

            let tokenID = try #require(AccessToken.parse(harness.adminToken)?.id)
            let updated = try #require(entries.first { $0.revision == update.revision })
            #expect(updated.tokenID == tokenID && updated.actor == "initial admin token")
            #expect(updated.address.hasPrefix("127.0.0.1:"), "the peer's address: \(updated.address)")
            #expect(updated.atMs == t0 + minute, "when, by the server's clock")
            #expect(updated.reason == "moved to Platform")
            let change = try #require(updated.changes.first)
            #expect(change.before.employeeUpserted.team == "Core" && change.change.employeeUpserted.team == "Platform")

            let motd = try #require(entries.last)
            #expect(
                motd.changes.first?.before.motdSet == "" && motd.changes.first?.change.motdSet == "Freeze from Friday")
            #expect(motd.reason == "release freeze")
            #expect(entries.first?.changes.first?.hasBefore == false, "an added employee had no record before")
            #expect(AuditEntry(wire: motd).changeLines() == ["motd: \"\" → \"Freeze from Friday\""])
            #expect(AuditEntry(wire: updated).changeLines() == ["employee Ada Lovelace: team \"Core\" → \"Platform\""])
            await admin.close()
        }
    }

    /// A token refused on the HTTP side (Bearer) or by the web app's sign-in form is recorded as
    /// a refused Hello is: kind auth.failed, the door named, the address, never the secret.
    @Test func refusedTokensOnTheHTTPSideAreRecordedWithTheirDoor() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let wrong =
                "rst_" + String(harness.adminToken.dropFirst(4).prefix { $0 != "_" }) + "_wrongsecretwrongsecret"
            #expect(try await HTTPGet.request(base + "/v1/oncall", token: wrong).status == 401)
            let signIn = try await HTTPGet.request(
                base + "/sign-in", method: "POST", form: [("token", "rst_nope_nope")],
                headers: ["Origin: \(base)"])
            #expect(signIn.status == 401)
            let admin = try await harness.connect()
            var failures: [Roster_V1_AuditEntry] = []
            let found = await eventually(30) {
                failures = ((try? await Self.audit(admin).entries) ?? []).filter { $0.kind == "auth.failed" }
                return failures.count >= 2
            }
            #expect(found, "\(failures)")
            #expect(
                failures.contains {
                    $0.detail == "wrong secret (HTTP Bearer token)" && $0.address.hasPrefix("127.0.0.1:")
                }, "\(failures)")
            #expect(failures.contains { $0.detail.hasSuffix("(web sign-in)") }, "\(failures)")
            #expect(!failures.map(\.detail).joined().contains("wrongsecret"), "no secret is recorded")
            await admin.close()
        }
    }

    @Test func readersAreRefusedAndAuthFailuresAndTokensAreRecordedWithoutSecrets() async throws {
        try await withServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) { harness in
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let reader = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, label: "wallboard")
            let ready = await eventually(10) { (try? await harness.connect(token: reader.text)) != nil }
            try #require(ready, "the server did not pick up the token")

            let asReader = try await harness.connect(token: reader.text)
            do {
                _ = try await Self.audit(asReader)
                Issue.record("a reader read the audit log")
            } catch RosterClientError.server(let error) {
                #expect(error.code == .permissionDenied)
            }
            await asReader.close()

            // A guess with a known token id and a wrong secret.
            let wrong = AccessToken.prefix + reader.token.id + "_" + String(repeating: "0", count: 64)
            await #expect(throws: (any Error).self) { _ = try await harness.connect(token: wrong) }
            try await administration.revokeToken(reader.token.id)
            await administration.close()

            let admin = try await harness.connect()
            let found = await eventually(10) {
                let kinds = (try? await Self.audit(admin).entries.map(\.kind)) ?? []
                return kinds.contains("auth.failed") && kinds.contains("token.revoked")
            }
            try #require(found, "the failure and the revocation were recorded")
            let entries = try await Self.audit(admin).entries
            // Polling before the server knew the token failed as "unknown token"; the guess is the last.
            let failure = try #require(entries.last { $0.kind == "auth.failed" })
            #expect(failure.detail == "wrong secret" && failure.tokenID == reader.token.id)
            #expect(failure.address.hasPrefix("127.0.0.1:"))
            let created = try #require(
                entries.first { $0.kind == "token.created" && $0.detail.contains(reader.token.id) })
            #expect(
                created.actor == "local admin" && created.detail.contains("wallboard")
                    && created.detail.contains("reader"))
            #expect(entries.contains { $0.kind == "token.revoked" && $0.detail.contains(reader.token.id) })

            let secret = try #require(AccessToken.parse(reader.text)?.secret)
            let everything = entries.map { AuditEntry(wire: $0).jsonLine }.joined()
            #expect(
                !everything.contains(secret) && !everything.contains(String(repeating: "0", count: 64)),
                "no secret, presented or issued, is kept")
            await admin.close()
        }
    }

    @Test func entriesAreFoundByPersonScheduleTimeAndTheNewestWithinALimit() async throws {
        try await withServer { harness in
            let admin = try await harness.connect()
            let ada = try await admin.addEmployee("Ada", "Lovelace")
            _ = try await admin.addEmployee("Alan", "Turing")
            harness.clock.advance(to: t0 + 10 * minute)
            _ = try await admin.addShift(ada, t0 + 60 * minute, t0 + 120 * minute)
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.upsertSchedule = .with {
                            $0.name = "Platform primary"; $0.zone = "UTC"
                        }
                    }))
            harness.clock.advance(to: t0 + 20 * minute)
            try await admin.admin(
                .editSchedule(
                    .with {
                        $0.schedule = "Platform primary"
                        $0.upsertRotation = .with {
                            $0.rotation = .with {
                                $0.cadence = .with {
                                    $0.unit = .days; $0.count = 1
                                }
                                $0.handoff = "2026-01-01T09:00"
                                $0.slots = [.with { $0.employeeIds = ["Alan Turing"] }]
                            }
                        }
                        $0.reason = "Alan starts the rotation"
                    }))
            try await admin.admin(.deleteEmployee(.with { $0.id = ada }))

            let ofAda = try await Self.audit(admin, .with { $0.person = "Ada Lovelace" }).entries
            #expect(ofAda.map(\.revision) == [1, 3, 6], "added, given a shift, removed: \(ofAda.map(\.revision))")
            let ofAlan = try await Self.audit(admin, .with { $0.person = "alan turing" }).entries
            #expect(ofAlan.map(\.revision) == [2, 5], "added, put in a rotation")
            let ofSchedule = try await Self.audit(admin, .with { $0.schedule = "platform PRIMARY" }).entries
            #expect(ofSchedule.map(\.revision) == [4, 5])
            #expect(ofSchedule.last?.reason == "Alan starts the rotation")
            let recent = try await Self.audit(admin, .with { $0.sinceMs = t0 + 10 * minute }).entries
            #expect(recent.map(\.revision) == [3, 4, 5, 6])
            let newest = try await Self.audit(admin, .with { $0.limit = 2 })
            #expect(newest.entries.map(\.revision) == [5, 6] && newest.truncated)
            await admin.close()
        }
    }

    @Test func entriesOlderThanTheRetentionArePruned() async throws {
        let scratch = TestScratch.directory("audit-retention")
        defer { TestScratch.remove(scratch) }
        let store = try await SQLiteRosterStore.open(path: scratch.path + "/roster.sqlite")
        let day: Int64 = 86_400_000
        try await store.createTenant(Tenant(id: "demo", name: "Demo"), epoch: 1)
        for age in [401, 399, 0] as [Int64] {
            try await store.appendAudit(
                tenantID: "demo",
                .with {
                    $0.kind = "auth.failed"; $0.atMs = t0 - age * day; $0.detail = "\(age)"
                })
        }
        #expect(try await store.pruneAudit(before: t0 - 400 * day) == 1)
        let left = try await store.auditEntries(tenantID: "demo", since: 0, limit: 10, matching: { _ in true })
        #expect(left.entries.map(\.detail) == ["0", "399"], "newest first, the old one gone")
        try await store.close()
    }
}

/// The budget that keeps a flood of refused Hellos from flooding the audit log.
@Suite(.timeLimit(.minutes(10))) struct AuditFailureBudgetTests {
    @Test func aFloodIsRecordedInABurstThenOneEveryTwoSecondsAndTheRestCounted() {
        var budget = AuditLog.FailureBudget()
        let admitted = (0..<25).map { _ in budget.admit(at: 10_000) }
        #expect(admitted.filter(\.record).count == AuditLog.FailureBudget.burst)
        #expect(admitted.allSatisfy { $0.suppressedBefore == 0 })
        #expect(!budget.admit(at: 11_000).record, "half a refill later, still nothing")
        let refilled = budget.admit(at: 12_000)
        #expect(refilled.record && refilled.suppressedBefore == 6, "the next one recorded says how many were not")
        #expect(!budget.admit(at: 12_001).record)
        // A day of one attempt a second records at most one in two.
        let day = (0..<86_400).map { budget.admit(at: 20_000 + UnixMillis($0) * 1_000) }.filter(\.record).count
        #expect(day <= 86_400 / 2 + AuditLog.FailureBudget.burst)
    }
}
