import RosterDomain
import RosterIdentity
import Testing

/// Who a verified ID token is in the directory: keyed by (issuer, subject), linked by e-mail only
/// when the provider verified it and the tenant allows it, created just in time when allowed;
/// the role and team from the groups at each sign-in.
@Suite(.timeLimit(.minutes(10))) struct SignInIdentityTests {
    static let directory = [
        Employee(id: "e1", firstName: "Ada", lastName: "Lovelace", email: "ada@example.test", team: "Core"),
        Employee(id: "e2", firstName: "Twin", lastName: "One", email: "twin@example.test"),
        Employee(id: "e3", firstName: "Twin", lastName: "Two", email: "TWIN@example.test"),
    ]

    static func claims(_ members: [String: JSONValue]) -> IDTokenClaims {
        IDTokenClaims(issuer: "https://id.example.test", subject: "s-1", claims: members)
    }

    static func resolve(
        _ members: [String: JSONValue], _ settings: SingleSignOnSettings, linked: String? = nil
    ) -> Result<SignInIdentity, SignInRefusal> {
        Result { () throws(SignInRefusal) in
            try SignInIdentity.resolve(
                claims(members), settings: settings, linked: linked, directory: directory, newID: { "new-1" })
        }
    }

    static let settings = SingleSignOnSettings(
        issuer: "https://id.example.test", clientID: "roster", adminGroups: ["oncall-admins"],
        teamGroups: ["payments": "Payments"], createPeople: true, linkByVerifiedEmail: true)

    @Test func aLinkedPersonIsFoundBySubjectAndGetsTheGroupsRole() throws {
        let admin = try Self.resolve(
            ["groups": .array([.string("payments"), .string("oncall-admins")])], Self.settings, linked: "e1"
        ).get()
        #expect(admin == SignInIdentity(person: .linked(employeeID: "e1"), role: .admin, team: "Payments"))
        // Out of the admin group at the next sign-in: a reader again.
        let reader = try Self.resolve(["groups": .array([])], Self.settings, linked: "e1").get()
        #expect(reader.role == .reader && reader.team == nil)
        #expect(Self.resolve([:], Self.settings, linked: "gone") == .failure(.linkedPersonGone))
    }

    @Test func anEMailLinksOnlyWhenVerifiedAllowedAndUnique() throws {
        let verified: [String: JSONValue] = ["email": .string("ADA@example.test"), "email_verified": .bool(true)]
        #expect(try Self.resolve(verified, Self.settings).get().person == .linkedByEmail(employeeID: "e1"))
        // Unverified: never linked, a new person instead (the address could be anyone's).
        var unverified = verified
        unverified["email_verified"] = .bool(false)
        guard case .created(let person) = try Self.resolve(unverified, Self.settings).get().person else {
            Issue.record("an unverified address was linked")
            return
        }
        #expect(person.id == "new-1" && person.email == "ADA@example.test")
        var noLinking = Self.settings
        noLinking.linkByVerifiedEmail = false
        if case .linkedByEmail = try Self.resolve(verified, noLinking).get().person {
            Issue.record("linked against the setting")
        }
        let twin: [String: JSONValue] = ["email": .string("twin@example.test"), "email_verified": .bool(true)]
        #expect(Self.resolve(twin, Self.settings) == .failure(.emailNotUnique))
    }

    @Test func aNewPersonIsCreatedOnlyWhenAllowedWithTheClaimsNames() throws {
        let members: [String: JSONValue] = [
            "name": .string("Grace Brewster Hopper"), "email": .string("grace@example.test"),
            "phone_number": .string("+1 555 0100"), "groups": .string("payments"),
        ]
        let made = try Self.resolve(members, Self.settings).get()
        #expect(
            made.person
                == .created(
                    Employee(
                        id: "new-1", firstName: "Grace Brewster", lastName: "Hopper", email: "grace@example.test",
                        phone: "+1 555 0100", team: "Payments")))
        var closed = Self.settings
        closed.createPeople = false
        #expect(Self.resolve(members, closed) == .failure(.unknownPerson))
        // Given and family names win over the full name; nested claim paths are followed.
        var nested = Self.settings
        nested.claims.groups = "realm_access.roles"
        let keycloak = try Self.resolve(
            [
                "given_name": .string("Grace"), "family_name": .string("Hopper"), "name": .string("G. H."),
                "realm_access": .object(["roles": .array([.string("oncall-admins")])]),
            ], nested
        ).get()
        #expect(keycloak.role == .admin)
        guard case .created(let grace) = keycloak.person else {
            Issue.record("not created")
            return
        }
        #expect(grace.firstName == "Grace" && grace.lastName == "Hopper")
        // The directory needs both names: one known name fills both.
        let single = try Self.resolve(["email": .string("ada@example.test")], Self.settings).get()
        guard case .created(let ada) = single.person else {
            Issue.record("not created")
            return
        }
        #expect(ada.firstName == "ada" && ada.lastName == "ada")
    }

    @Test func readerGroupsCloseSignInToEveryoneElse() {
        var settings = Self.settings
        settings.readerGroups = ["oncall"]
        #expect(
            Self.resolve(["groups": .array([.string("marketing")])], settings, linked: "e1")
                == .failure(.notInAllowedGroup))
        #expect(
            (try? Self.resolve(["groups": .array([.string("oncall")])], settings, linked: "e1").get())?.role == .reader)
        #expect(
            (try? Self.resolve(["groups": .array([.string("oncall-admins")])], settings, linked: "e1").get())?.role
                == .admin)
    }

    /// A provider that sends its groups by SCIM, not in its tokens: the person's SCIM Groups
    /// grant the role as a groups claim would; a person not yet in the directory has none.
    @Test func aSCIMGroupGrantsItsRoleAsTheClaimWould() throws {
        var settings = Self.settings
        settings.readerGroups = ["oncall"]
        func resolve(_ linked: String?, _ provisioned: [String: Set<String>]) -> Result<SignInIdentity, SignInRefusal> {
            Result { () throws(SignInRefusal) in
                try SignInIdentity.resolve(
                    Self.claims(["email": .string("ada@example.test"), "email_verified": .bool(true)]),
                    settings: settings, linked: linked, directory: Self.directory,
                    provisionedGroups: { provisioned[$0] ?? [] }, newID: { "new-1" })
            }
        }
        #expect(try resolve("e1", ["e1": ["oncall-admins"]]).get().role == .admin)
        #expect(try resolve("e1", ["e1": ["oncall"]]).get().role == .reader)
        #expect(resolve("e1", ["e2": ["oncall"]]) == .failure(.notInAllowedGroup))
        // Linked by e-mail: that person's groups count.
        #expect(
            try resolve(nil, ["e1": ["oncall-admins"]]).get()
                == SignInIdentity(
                    person: .linkedByEmail(employeeID: "e1"), role: .admin, team: nil))
        settings.linkByVerifiedEmail = false
        #expect(resolve(nil, ["e1": ["oncall-admins"]]) == .failure(.notInAllowedGroup))
    }

    @Test func settingsProblemsAreSaid() {
        #expect(Self.settings.problems.isEmpty)
        var bad = Self.settings
        bad.issuer = "http://id.example.test"
        bad.clientID = ""
        bad.scopes = ["openid profile"]
        #expect(bad.problems.count == 3)
        #expect(bad.problems[0].contains("plain http"))
    }
}
