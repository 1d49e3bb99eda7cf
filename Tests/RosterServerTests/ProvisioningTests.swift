import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterTestSupport
import Testing

/// SCIM 2.0 at /scim/v2 (docs/SSO.md) over real HTTP with curl: the tenant's bearer token, each
/// provisioning change one revision the directory shows, deactivation instead of deletion,
/// filters, pages, PATCH as Entra ID writes it, ETags; and scim2-tester, an independent
/// checker, with no failure.
/// One test at a time: each runs a server, curl processes and, for the checker, Python; beside
/// the whole suite on two cores, five at once starved each other past curl's 20 s.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ProvisioningTests {
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/scim_checker.py").path

    /// A new SCIM token for the default tenant, made over the protocol as the CLI makes it.
    static func token(_ harness: ServerHarness) async throws -> (text: String, id: String) {
        let admin = try await harness.connect()
        let answer = try await SingleSignOnTests.identityAdmin(admin, .with { $0.createProvisioningToken = "test" })
        #expect(answer.provisioningSecret.hasPrefix("rsp_") && answer.provisioningURL.hasSuffix("/scim/v2"))
        return (answer.provisioningSecret, try #require(answer.provisioningTokens.first).id)
    }

    /// One SCIM request with the token.
    static func scim(
        _ base: String, _ token: String, _ method: String, _ path: String, _ body: String? = nil,
        headers: [String] = []
    ) async throws -> HTTPResponse {
        try await HTTPGet.request(
            base + "/scim/v2" + path, token: token, method: method,
            headers: ["Content-Type: application/scim+json"] + headers, data: body)
    }

    static func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }
            .map { String($0.dropFirst(name.count + 2)) }
    }

    static func people(_ harness: ServerHarness) async throws -> Roster_V1_EmployeesResponse {
        let reader = try await harness.connect()
        guard case .employees(let list) = try await reader.request(.listEmployees(.init())) else {
            throw TestFailure("expected Employees")
        }
        return list
    }

    @Test func onlyTheTenantsSCIMTokenOpensIt() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let (token, id) = try await Self.token(harness)
            let none = try await HTTPGet.request(base + "/scim/v2/Users")
            #expect(
                none.status == 401 && none.json["scimType"] == nil
                    && (none.json["detail"] as? String)?.contains("SCIM token") == true)
            #expect(none.headers.contains("WWW-Authenticate: Bearer"))
            // A protocol admin token is not a SCIM token, and a SCIM token opens no Hello.
            let admin = try await Self.scim(base, harness.adminToken, "GET", "/Users")
            #expect(admin.status == 401)
            await #expect(throws: (any Error).self) {
                _ = try await harness.connect(token: token).request(.listEmployees(.init()))
            }
            // The secret's last digit changed (to another digit, whatever it was).
            let forged = try await Self.scim(
                base, String(token.dropLast()) + (token.hasSuffix("0") ? "1" : "0"), "GET", "/Users")
            #expect(forged.status == 401)
            let fine = try await Self.scim(base, token, "GET", "/Users")
            #expect(fine.status == 200 && fine.json["totalResults"] as? Int == 0, "\(fine.body)")
            #expect(fine.headers.lowercased().contains("content-type: application/scim+json"))

            let admin2 = try await harness.connect()
            let listed = try await SingleSignOnTests.identityAdmin(admin2, .with { $0.listProvisioningTokens = true })
            #expect(listed.provisioningTokens.map(\.id) == [id] && listed.provisioningTokens[0].revokedAtMs == 0)
            _ = try await SingleSignOnTests.identityAdmin(admin2, .with { $0.revokeProvisioningToken = id })
            let revoked = try await Self.scim(base, token, "GET", "/Users")
            #expect(revoked.status == 401)
            // Each refusal is audited (auth.failed, under the refused-Hello budget).
            guard case .audit(let audit) = try await admin2.request(.getAudit(.init())) else {
                throw TestFailure("expected the audit log")
            }
            #expect(
                audit.entries.contains {
                    $0.kind == "auth.failed" && $0.detail.contains("revoked token (SCIM bearer token)")
                })
            #expect(audit.entries.contains { $0.kind == "scim-token.created" })
            #expect(audit.entries.contains { $0.kind == "scim-token.revoked" })
        }
    }

    @Test func aProvisionedGroupShowsItsPeopleAndDeactivationKeepsThem() async throws {
        try await HTTPTests.withHTTPServer(configure: { $0.limits.tokenRefresh = .milliseconds(50) }) { harness, base in
            let (token, _) = try await Self.token(harness)
            let start = try await Self.people(harness).revision
            let ada = try await Self.scim(
                base, token, "POST", "/Users",
                """
                {"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User",
                             "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
                 "userName": "ada@example.com", "name": {"givenName": "Ada", "familyName": "Lovelace"},
                 "emails": [{"value": "ada@example.com", "type": "work", "primary": true}],
                 "phoneNumbers": [{"value": "+44 20 7946 0000", "type": "mobile"}], "title": "Engineer",
                 "externalId": "00u1"}
                """)
            #expect(ada.status == 201, "\(ada.body)")
            let adaID = try #require(ada.json["id"] as? String)
            #expect(Self.header(ada, "Location")?.hasSuffix("/scim/v2/Users/\(adaID)") == true)
            // Entra ID's shapes: a boolean as a string, a name only in displayName.
            let alan = try await Self.scim(
                base, token, "POST", "/Users", #"{"userName": "alan", "displayName": "Alan Turing", "active": "True"}"#)
            #expect(alan.status == 201 && alan.json["active"] as? Bool == true, "\(alan.body)")
            let alanID = try #require(alan.json["id"] as? String)
            var list = try await Self.people(harness)
            #expect(list.revision == start + 2, "one revision per provisioning change")
            let made = try #require(list.employees.first { $0.id == adaID })
            #expect(made.firstName == "Ada" && made.lastName == "Lovelace" && made.email == "ada@example.com")
            #expect(made.phone == "+44 20 7946 0000" && made.position == "Engineer")

            // A subscriber hears the group's change as one push.
            let watcher = try await harness.connect()
            let inbox = Inbox(watcher)
            watcher.subscribe(.with { $0.topics = [.roster] })
            _ = try await inbox.untilSynced()
            let group = try await Self.scim(
                base, token, "POST", "/Groups",
                #"{"displayName": "Platform SRE", "members": [{"value": "\#(adaID)"}, {"value": "\#(alanID)"}]}"#)
            #expect(group.status == 201, "\(group.body)")
            list = try await Self.people(harness)
            #expect(list.revision == start + 3, "two people in one revision")
            let push = try await inbox.next(timeout: .seconds(60))
            guard case .rosterChanged(let changed) = push.message else {
                throw TestFailure("expected RosterChanged, got \(push.message.type)")
            }
            #expect(changed.revision == start + 3 && changed.changes.count == 2)
            await watcher.close()
            #expect(list.employees.filter { $0.team == "Platform SRE" }.map(\.id).sorted() == [adaID, alanID].sorted())
            let page = try await HTTPGet.request(base + "/people?group=team")
            let section = try #require(page.body.range(of: "<h2>Platform SRE</h2>"), "\(page.body)")
            let after = page.body[section.upperBound...]
            #expect(after.prefix(2_000).contains("Lovelace") && after.prefix(2_000).contains("Turing"))

            // Deactivated (as Entra ID writes it): kept, listed apart, their tokens revoked.
            let administration = try await StoreAdministration.open(dataDirectory: harness.dataDirectory)
            let personToken = try await administration.createToken(
                tenant: "demo", role: .reader, expiresIn: nil, label: "alan's", employee: alanID)
            let picked = await eventually(10) { (try? await harness.connect(token: personToken.text)) != nil }
            try #require(picked, "the server did not pick up the token")
            let patch = try await Self.scim(
                base, token, "PATCH", "/Users/\(alanID)",
                #"{"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], "Operations": [{"op": "Replace", "path": "active", "value": "False"}]}"#
            )
            #expect(patch.status == 200 && patch.json["active"] as? Bool == false, "\(patch.body)")
            list = try await Self.people(harness)
            #expect(list.employees.first { $0.id == alanID }?.deactivated == true)
            let directory = try await HTTPGet.request(base + "/people")
            let deactivated = try #require(directory.body.range(of: "<h2>Deactivated</h2>"), "\(directory.body)")
            #expect(directory.body[deactivated.upperBound...].contains("Turing"))
            await #expect(throws: (any Error).self) { _ = try await harness.connect(token: personToken.text) }

            // Deleted by the provider: gone from SCIM, still in the directory (deactivated).
            let deleted = try await Self.scim(base, token, "DELETE", "/Users/\(adaID)")
            #expect(deleted.status == 204)
            #expect(try await Self.scim(base, token, "GET", "/Users/\(adaID)").status == 404)
            list = try await Self.people(harness)
            #expect(list.employees.first { $0.id == adaID }?.deactivated == true)
            let members = try await Self.scim(
                base, token, "GET", "/Groups?filter=displayName%20eq%20%22platform%20sre%22")
            #expect(members.json["totalResults"] as? Int == 1, "\(members.body)")

            // The group still names Ada; a later change to it drops her and takes Grace, while a
            // member that never was a User is still refused.
            let groupID = try #require(group.json["id"] as? String)
            let grace = try await Self.scim(
                base, token, "POST", "/Users", #"{"userName": "grace", "displayName": "Grace Hopper"}"#)
            let graceID = try #require(grace.json["id"] as? String)
            func addMember(_ id: String) async throws -> HTTPResponse {
                try await Self.scim(
                    base, token, "PATCH", "/Groups/\(groupID)",
                    #"{"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], "Operations": [{"op": "add", "path": "members", "value": [{"value": "\#(id)"}]}]}"#
                )
            }
            let added = try await addMember(graceID)
            #expect(added.status == 200, "\(added.body)")
            let now = ((added.json["members"] as? [[String: Any]]) ?? []).compactMap { $0["value"] as? String }
            #expect(Set(now) == [alanID, graceID], "\(added.body)")
            let stranger = try await addMember("emp_never")
            #expect(stranger.status == 400 && stranger.body.contains("is no User"), "\(stranger.body)")
        }
    }

    @Test func filtersPagesETagsAndRefusals() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let (token, _) = try await Self.token(harness)
            var ids: [String] = []
            for name in ["Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"] {
                let user = name.split(separator: " ").last!.lowercased()
                let made = try await Self.scim(
                    base, token, "POST", "/Users", #"{"userName": "\#(user)@example.com", "displayName": "\#(name)"}"#)
                ids.append(try #require(made.json["id"] as? String, "\(made.body)"))
            }
            // eq ignores case on userName (caseExact false), not on id.
            let found = try await Self.scim(
                base, token, "GET", "/Users?filter=userName%20eq%20%22HOPPER@example.com%22")
            #expect(found.json["totalResults"] as? Int == 1)
            let both = try await Self.scim(
                base, token, "GET",
                "/Users?filter=id%20eq%20%22\(ids[1])%22%20and%20userName%20eq%20%22dijkstra@example.com%22")
            #expect(both.json["totalResults"] as? Int == 1)
            let other = try await Self.scim(base, token, "GET", "/Users?filter=userName%20co%20%22a%22")
            #expect(other.status == 400 && other.json["scimType"] as? String == "invalidFilter", "\(other.body)")
            let unknown = try await Self.scim(base, token, "GET", "/Users?filter=shoeSize%20eq%201")
            #expect(unknown.status == 400 && unknown.json["scimType"] as? String == "invalidPath")
            let page = try await Self.scim(base, token, "GET", "/Users?startIndex=2&count=1&attributes=userName")
            let resources = page.json["Resources"] as? [[String: Any]] ?? []
            #expect(
                page.json["totalResults"] as? Int == 3 && page.json["itemsPerPage"] as? Int == 1 && resources.count == 1
            )
            #expect(resources.first?["displayName"] == nil && resources.first?["userName"] != nil)
            let bad = try await Self.scim(base, token, "GET", "/Users?count=99999999999")
            #expect(bad.status == 400 && bad.json["scimType"] as? String == "invalidValue")
            let search = try await Self.scim(
                base, token, "POST", "/Users/.search", #"{"filter": "userName eq \"liskov@example.com\"", "count": 5}"#)
            #expect(search.json["totalResults"] as? Int == 1, "\(search.body)")

            // ETags: a GET with the version is 304; a write with a stale one is 412.
            let got = try await Self.scim(base, token, "GET", "/Users/\(ids[0])")
            let etag = try #require(Self.header(got, "ETag"))
            #expect(etag.hasPrefix("W/\"") && (got.json["meta"] as? [String: Any])?["version"] as? String == etag)
            #expect(
                try await Self.scim(base, token, "GET", "/Users/\(ids[0])", headers: ["If-None-Match: \(etag)"]).status
                    == 304)
            let patch = #"{"Operations": [{"op": "add", "path": "title", "value": "Rear Admiral"}]}"#
            let changed = try await Self.scim(
                base, token, "PATCH", "/Users/\(ids[0])", patch, headers: ["If-Match: \(etag)"])
            #expect(changed.status == 200 && changed.json["title"] as? String == "Rear Admiral")
            let stale = try await Self.scim(
                base, token, "PATCH", "/Users/\(ids[0])", patch, headers: ["If-Match: \(etag)"])
            #expect(stale.status == 412)
            // Emails by filter, as Entra ID patches them; an element that is not there is added.
            let email = try await Self.scim(
                base, token, "PATCH", "/Users/\(ids[0])",
                #"{"Operations": [{"op": "replace", "path": "emails[type eq \"work\"].value", "value": "grace@example.com"}]}"#
            )
            #expect((email.json["emails"] as? [[String: Any]])?.first?["value"] as? String == "grace@example.com")
            #expect(try await Self.people(harness).employees.first { $0.id == ids[0] }?.email == "grace@example.com")

            // Refusals, each typed, none of which changes anything.
            let revision = try await Self.people(harness).revision
            let taken = try await Self.scim(base, token, "POST", "/Users", #"{"userName": "LISKOV@example.com"}"#)
            #expect(taken.status == 409 && taken.json["scimType"] as? String == "uniqueness")
            let noName = try await Self.scim(base, token, "POST", "/Users", #"{"displayName": "Nobody"}"#)
            #expect(noName.status == 400)
            let wrongType = try await Self.scim(base, token, "POST", "/Users", #"{"userName": "x", "active": 3}"#)
            #expect(wrongType.status == 400 && wrongType.json["scimType"] as? String == "invalidValue")
            let badEmail = try await Self.scim(
                base, token, "POST", "/Users", #"{"userName": "y", "emails": [{"value": "not mail"}]}"#)
            #expect(
                badEmail.status == 400 && (badEmail.json["detail"] as? String)?.contains("not an email address") == true
            )
            let stranger = try await Self.scim(
                base, token, "POST", "/Groups", #"{"displayName": "G", "members": [{"value": "emp_nobody"}]}"#)
            #expect(stranger.status == 400 && (stranger.json["detail"] as? String)?.contains("is no User") == true)
            let notJSON = try await Self.scim(base, token, "POST", "/Users", "{")
            #expect(notJSON.status == 400 && notJSON.json["scimType"] as? String == "invalidSyntax")
            let huge = try await Self.scim(
                base, token, "POST", "/Users",
                #"{"userName": "z", "title": "\#(String(repeating: "x", count: 70_000))"}"#)
            #expect(huge.status == 413)
            #expect(try await Self.scim(base, token, "GET", "/Nope").status == 404)
            #expect(try await Self.scim(base, token, "DELETE", "/Users").status == 405)
            #expect(try await Self.people(harness).revision == revision, "a refused request changed the directory")
        }
    }

    /// A hostile client (guessed tokens, oversized and malformed bodies, a flood of filters)
    /// beside the provider: every provisioning change of the provider lands, the directory
    /// holds exactly its people, and the refusals' audit entries stay within the budget.
    @Test func aHostileClientBesideTheProviderChangesNothingOfIt() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let (token, _) = try await Self.token(harness)
            let start = try await Self.people(harness).revision
            let began = ContinuousClock.now
            let hostile = Task {
                var refused = 0
                for round in 0..<15 {
                    let guessed = try await Self.scim(base, "rsp_\(round)_guess", "GET", "/Users")
                    let forged = try await Self.scim(
                        base, harness.adminToken, "POST", "/Users", #"{"userName": "m\#(round)"}"#)
                    let broken = try await Self.scim(base, token, "PATCH", "/Users/emp_nobody", "{\"Operations\": 3}")
                    let filter = try await Self.scim(
                        base, token, "GET",
                        "/Users?filter=" + String(repeating: "userName%20eq%20%22a%22%20and%20", count: 12) + "x")
                    refused += [guessed, forged, broken, filter].filter { $0.status >= 400 }.count
                }
                return refused
            }
            var ids: [String] = []
            for index in 0..<10 {
                let made = try await Self.scim(
                    base, token, "POST", "/Users",
                    #"{"userName": "p\#(index)", "name": {"givenName": "Person", "familyName": "Number \#(index)"}}"#)
                #expect(made.status == 201, "\(made.body)")
                ids.append(try #require(made.json["id"] as? String))
            }
            #expect(try await hostile.value == 60, "every hostile request refused")
            let list = try await Self.people(harness)
            #expect(list.revision == start + 10)
            #expect(Set(list.employees.filter { $0.lastName.hasPrefix("Number ") }.map(\.id)) == Set(ids))
            let admin = try await harness.connect()
            guard case .audit(let audit) = try await admin.request(.getAudit(.init())) else {
                throw TestFailure("expected the audit log")
            }
            // The budget shared with refused Hellos: a burst of 20, then one every 2 s.
            let failures = audit.entries.filter { $0.kind == "auth.failed" }
            let allowed = 20 + Int((ContinuousClock.now - began).components.seconds / 2) + 1
            #expect(!failures.isEmpty && failures.count <= allowed, "the refused-token budget: \(failures.count)")
        }
    }

    @Test func anIndependentCheckerFindsNoFailure() async throws {
        try await HTTPTests.withHTTPServer { harness, base in
            let (token, _) = try await Self.token(harness)
            let child = try ChildProcess("/usr/bin/env", ["python3", "-u", Self.checker, base + "/scim/v2", token])
            try await withCleanup(
                child, cleanUp: { child in if child.isRunning { _ = await child.stop(signal: SIGKILL) } }
            ) { child in
                let status = await child.waitForExit(timeout: .seconds(240))
                #expect(status == 0, "scim2-tester (python3 with scim2-tester): \(child.output)")
                let summary = child.stdout.split(separator: "\n").last { $0.hasPrefix("CHECKS ") }
                let checks = summary.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
                #expect(checks >= 70 && summary?.contains("FAILED 0") == true, "\(child.output)")
            }
        }
    }
}
