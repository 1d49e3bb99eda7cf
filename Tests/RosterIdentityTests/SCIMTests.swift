import Foundation
import RosterDomain
import Testing

@testable import RosterIdentity

/// The SCIM values alone (RFC 7643, 7644): how a provider's JSON is read, filtered, patched, and
/// what person a User and its Groups make.
@Suite(.timeLimit(.minutes(10))) struct SCIMTests {
    static func json(_ text: String) throws -> JSONValue { try #require(JSONValue.parse(Data(text.utf8))) }

    static func user(_ text: String) throws -> SCIMResource { try SCIMResource.canonical(json(text), type: .user) }

    @Test func attributesAreReadCaseInsensitivelyAndCheckedForType() throws {
        let read = try Self.user(
            """
            {"schemas": ["x"], "id": "forged", "meta": {}, "USERNAME": "ada", "Name": {"GIVENNAME": "Ada", "nick": "x"},
             "shoeSize": 42, "active": "False", "emails": {"value": "a@example.com"},
             "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"Department": "SRE", "manager": {}}}
            """)
        #expect(read.attributes["userName"] == .string("ada") && read.attributes["id"] == nil)
        #expect(read.attributes["name"] == .object(["givenName": .string("Ada")]))
        #expect(read.attributes["shoeSize"] == nil && read.attributes["active"] == .bool(false))
        #expect(read.attributes["emails"] == .array([.object(["value": .string("a@example.com")])]))
        #expect(read.attributes[SCIMSchema.enterpriseUser] == .object(["department": .string("SRE")]))
        for bad in [
            #"{"userName": 7}"#, #"{"active": "maybe"}"#, #"{"name": "Ada"}"#, #"{"emails": 3}"#,
            #"{"title": "a\u0007b"}"#, "[1]",
        ] {
            #expect(throws: SCIMError.self, "\(bad)") { try Self.user(bad) }
        }
        let many =
            "[" + (0...SCIMResource.maxValues).map { #"{"value": "\#($0)@example.com"}"# }.joined(separator: ",") + "]"
        #expect(throws: SCIMError.invalidValue("emails holds at most 100 values")) {
            try Self.user(#"{"emails": \#(many)}"#)
        }
        #expect(throws: SCIMError.self) { try Self.user(#"{"title": "\#(String(repeating: "x", count: 2_049))"}"#) }
        // Stored text is stable, and so is the version.
        #expect(try Self.user(#"{"b": 1, "userName": "u", "title": "t"}"#).stored == #"{"title":"t","userName":"u"}"#)
    }

    /// Every RFC 7643 User attribute is published, as scim2-client's models (Canaille's SCIM
    /// client) need; the ones the directory does not show are kept and given back, but a
    /// password and a User's groups never are.
    @Test func everyCoreAttributeIsPublishedAndThePasswordIsNeverKept() throws {
        let published = Set(SCIMSchema.userSchema.attributes.map(\.name))
        for name in [
            "userName", "name", "displayName", "nickName", "profileUrl", "title", "userType", "preferredLanguage",
            "locale", "timezone", "active", "password", "emails", "phoneNumbers", "ims", "photos", "addresses",
            "groups", "entitlements", "roles", "x509Certificates",
        ] {
            #expect(published.contains(name), "\(name)")
        }
        var ada = try Self.user(
            """
            {"userName": "ada", "password": "{SSHA}secret", "preferredLanguage": "en",
             "addresses": [{"locality": "London", "region": null}], "groups": [{"value": "g1"}]}
            """)
        #expect(ada.attributes["password"] == nil && ada.attributes["groups"] == nil)
        #expect(ada.attributes["preferredLanguage"] == .string("en"))
        #expect(ada.attributes["addresses"] == .array([.object(["locality": .string("London")])]))
        ada = try SCIMPatch.apply(
            Self.json(#"{"Operations": [{"op": "replace", "path": "password", "value": "s3cret"}]}"#), to: ada)
        #expect(ada.attributes["password"] == nil && ada.attributes["userName"] == .string("ada"))
        let groups = try Self.json(#"{"Operations": [{"op": "replace", "path": "groups", "value": []}]}"#)
        #expect(throws: SCIMError.self) { try SCIMPatch.apply(groups, to: ada) }
        guard case .array(let attributes)? = SCIMSchema.userSchema.published(location: "")["attributes"],
            let password = attributes.first(where: { $0["name"] == .string("password") })
        else {
            Issue.record("no password in /Schemas")
            return
        }
        #expect(password["returned"] == .string("never") && password["mutability"] == .string("writeOnly"))
    }

    @Test func filtersTakeEqAndAndOnly() throws {
        let ada = try Self.user(
            #"{"userName": "Ada", "emails": [{"value": "ADA@example.com", "type": "work"}], "externalId": "X1"}"#)
        func matches(_ text: String) throws -> Bool {
            try SCIMFilter.parse(text, in: .user).matches(id: "emp_1", body: ada.attributes)
        }
        #expect(try matches(#"userName eq "ada""#))
        #expect(try matches(#"emails eq "ada@EXAMPLE.com""#))
        #expect(try matches(#"emails.value eq "ada@example.com""#))
        #expect(try !matches(#"externalId eq "x1""#), "externalId is case-exact")
        #expect(try matches(#"externalId eq "X1" and id eq "emp_1""#))
        #expect(try !matches(#"userName eq "ada" and id eq "emp_2""#))
        #expect(try matches(#"urn:ietf:params:scim:schemas:core:2.0:User:userName eq "ADA""#))
        #expect(try matches(#"title eq null"#))
        #expect(try matches(#"userName eq "with \"quotes\"""#) == false)
        let refused: [(String, String)] = [
            (#"userName ne "a""#, "invalidFilter"), (#"userName eq "a" or userName eq "b""#, "invalidFilter"),
            (#"userName pr"#, "invalidFilter"), (#"shoeSize eq 1"#, "invalidPath"),
            (#"userName eq "open"#, "invalidFilter"),
            (#"userName eq a"#, "invalidFilter"), (#"(userName eq "a")"#, "invalidPath"),
            (String(repeating: #"userName eq "a" and "#, count: 10) + #"userName eq "a""#, "invalidFilter"),
            (#"userName eq ""# + String(repeating: "a", count: 1_000) + #"""#, "invalidFilter"),
        ]
        for (text, type) in refused {
            #expect(throws: SCIMError.self, "\(text)") { try SCIMFilter.parse(text, in: .user) }
            do { _ = try SCIMFilter.parse(text, in: .user) } catch {
                #expect(error.scimType == type, "\(text): \(error)")
            }
        }
    }

    @Test func patchOperationsAsProvidersWriteThem() throws {
        var ada = try Self.user(#"{"userName": "ada", "emails": [{"value": "a@example.com", "type": "home"}]}"#)
        func patch(_ operations: String) throws {
            ada = try SCIMPatch.apply(Self.json(#"{"Operations": \#(operations)}"#), to: ada)
        }
        try patch(#"[{"op": "Add", "path": "emails", "value": [{"value": "w@example.com", "type": "work"}]}]"#)
        #expect(SCIMPeople.members(of: ada).isEmpty)
        if case .array(let emails)? = ada.attributes["emails"] {
            #expect(emails.count == 2)
        } else {
            Issue.record("no emails")
        }
        try patch(#"[{"op": "replace", "path": "emails[type eq \"work\"].value", "value": "new@example.com"}]"#)
        #expect(
            SCIMFilter.equal(
                ada.attributes["emails"]?.arrayItems?[1]["value"], .string("new@example.com"), caseExact: true))
        try patch(#"[{"op": "remove", "path": "emails[type eq \"home\"]"}]"#)
        #expect(ada.attributes["emails"]?.arrayItems?.count == 1)
        try patch(#"[{"op": "replace", "value": {"name": {"givenName": "Ada"}, "title": "Countess"}}]"#)
        try patch(#"[{"op": "add", "path": "name.familyName", "value": "Lovelace"}]"#)
        #expect(ada.attributes["name"] == .object(["givenName": .string("Ada"), "familyName": .string("Lovelace")]))
        try patch(
            #"[{"op": "add", "path": "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department", "value": "SRE"}]"#
        )
        #expect(ada.attributes[SCIMSchema.enterpriseUser]?["department"] == .string("SRE"))
        try patch(
            #"[{"op": "remove", "path": "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"}, {"op": "remove", "path": "title"}]"#
        )
        #expect(ada.attributes[SCIMSchema.enterpriseUser] == nil && ada.attributes["title"] == nil)
        // All or nothing: a bad operation after a good one leaves the resource as it was.
        let before = ada
        #expect(throws: SCIMError.self) {
            try patch(
                #"[{"op": "replace", "path": "title", "value": "x"}, {"op": "replace", "path": "userName", "value": 5}]"#
            )
        }
        #expect(ada == before)
        for bad in [
            #"[{"op": "remove"}]"#, #"[{"op": "move", "path": "title"}]"#,
            #"[{"op": "add", "path": "shoeSize", "value": 1}]"#,
            #"[{"op": "add"}]"#, #"{"op": "add"}"#, #"[{"op": "add", "path": "title[value eq \"x\"]", "value": "y"}]"#,
        ] {
            #expect(throws: SCIMError.self, "\(bad)") { try patch(bad) }
        }

        var group = try SCIMResource.canonical(
            Self.json(#"{"displayName": "SRE", "members": [{"value": "a"}, {"value": "b"}]}"#), type: .group)
        group = try SCIMPatch.apply(
            Self.json(
                #"{"Operations": [{"op": "remove", "path": "members[value eq \"a\"]"}, {"op": "add", "path": "members", "value": [{"value": "c"}, {"value": "b"}]}]}"#
            ), to: group)
        #expect(SCIMPeople.members(of: group) == ["b", "c"])
        group = try SCIMPatch.apply(
            Self.json(#"{"Operations": [{"op": "Remove", "path": "members", "value": [{"value": "c"}]}]}"#), to: group)
        #expect(SCIMPeople.members(of: group) == ["b"])
    }

    @Test func aUserAndItsGroupsMakeOnePerson() throws {
        let groups = try [
            #"{"displayName": "Platform", "members": [{"value": "e1"}]}"#,
            #"{"displayName": "Admins", "members": [{"value": "e1"}]}"#,
            #"{"displayName": "Databases", "members": [{"value": "e1"}]}"#,
        ].map { try SCIMResource.canonical(Self.json($0), type: .group) }
        let existing = Employee(id: "e1", firstName: "Old", lastName: "Name", projects: ["kept"], biography: "kept too")
        let person = SCIMPeople.person(
            id: "e1",
            user: try Self.user(
                #"{"userName": "ada", "name": {"givenName": "Ada", "familyName": "Lovelace"}, "emails": [{"value": "b@example.com"}, {"value": "a@example.com", "primary": true}], "title": "Countess"}"#
            ), groups: groups, existing: existing, teamGroups: ["Databases": "DBA"], roleGroups: ["Admins"])
        #expect(person.fullName == "Ada Lovelace" && person.email == "a@example.com" && person.position == "Countess")
        #expect(person.team == "DBA", "the first team by name, mapped; a role group is no team")
        #expect(person.projects == ["kept"] && person.biography == "kept too" && !person.deactivated)
        let department = SCIMPeople.person(
            id: "e1",
            user: try Self.user(
                #"{"userName": "ada", "active": false, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "Research"}}"#
            ),
            groups: groups, existing: nil, teamGroups: [:], roleGroups: [])
        #expect(department.team == "Research" && department.deactivated)
        #expect(department.firstName == "ada" && department.lastName == "ada", "a one-word name fills both")
        let display = SCIMPeople.person(
            id: "e2", user: try Self.user(#"{"userName": "x", "displayName": "Grace Brewster Hopper"}"#), groups: [],
            existing: nil, teamGroups: [:], roleGroups: [])
        #expect(display.firstName == "Grace Brewster" && display.lastName == "Hopper" && display.team.isEmpty)
    }
}

extension JSONValue {
    var arrayItems: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
}
