import Foundation
import RosterDomain

/// Who a verified ID token is in a tenant's directory, and what they may do (docs/SSO.md). A
/// person is keyed by (issuer, subject), never by e-mail alone nor by subject alone; roles and
/// teams come from the token's groups at every sign-in, so leaving a group in the provider takes
/// effect at the next one. A role also comes from the SCIM Groups the person is a member of
/// (`provisionedGroups`), so a provider that sends groups by SCIM and not in its tokens works.
public struct SignInIdentity: Sendable, Equatable {
    public enum Person: Sendable, Equatable {
        /// Linked before by (issuer, subject).
        case linked(employeeID: String)
        /// First sign-in, linked now to the person with the provider's verified e-mail address.
        case linkedByEmail(employeeID: String)
        /// First sign-in, a person created from the token's claims (the id is new).
        case created(Employee)
    }

    public enum Role: String, Sendable, Equatable { case admin, reader }

    public var person: Person
    public var role: Role
    /// The team the groups put the person in; nil: the groups name none, the person's is kept.
    public var team: String?

    public init(person: Person, role: Role, team: String?) {
        (self.person, self.role, self.team) = (person, role, team)
    }

    /// The decision for `claims` in a directory where (issuer, subject) is linked to `linked`;
    /// `provisionedGroups` are the SCIM Groups a person (by id) is a member of.
    public static func resolve(
        _ claims: IDTokenClaims, settings: SingleSignOnSettings, linked: String?, directory: [Employee],
        provisionedGroups: (String) -> Set<String> = { _ in [] }, newID: () -> String
    ) throws(SignInRefusal) -> SignInIdentity {
        let paths = settings.claims
        let claimed = Set(claims.texts(at: paths.groups))
        func role(of id: String?) throws(SignInRefusal) -> Role {
            let groups = claimed.union(id.map(provisionedGroups) ?? [])
            if !groups.isDisjoint(with: settings.adminGroups) { return .admin }
            if settings.readerGroups.isEmpty || !groups.isDisjoint(with: settings.readerGroups) { return .reader }
            throw .notInAllowedGroup
        }
        let team = claims.texts(at: paths.groups).lazy.compactMap { settings.teamGroups[$0] }.first
        if let linked {
            let role = try role(of: linked)
            guard directory.contains(where: { $0.id == linked }) else { throw .linkedPersonGone }
            return SignInIdentity(person: .linked(employeeID: linked), role: role, team: team)
        }
        let email = (claims.text(at: paths.email) ?? "").trimmingCharacters(in: .whitespaces)
        if settings.linkByVerifiedEmail, claims.emailVerified, !email.isEmpty {
            let matches = directory.filter { $0.email.caseInsensitiveCompare(email) == .orderedSame }
            if matches.count == 1 {
                return SignInIdentity(
                    person: .linkedByEmail(employeeID: matches[0].id), role: try role(of: matches[0].id), team: team)
            }
            if matches.count > 1 {
                _ = try role(of: nil)
                throw .emailNotUnique
            }
        }
        let role = try role(of: nil)
        guard settings.createPeople else { throw .unknownPerson }
        let (first, last) = names(claims, paths: paths, email: email)
        let person = Employee(
            id: newID(), firstName: first, lastName: last, email: email,
            phone: claims.text(at: paths.phone) ?? "", team: team ?? "")
        return SignInIdentity(person: .created(person), role: role, team: team)
    }

    /// Given and family names from their claims, else split from the full name at its last
    /// space, else the e-mail's local part; each clipped to the directory's field length. The
    /// directory needs both: a single known name (or the local part) fills both, for an admin
    /// to correct.
    static func names(_ claims: IDTokenClaims, paths: SingleSignOnSettings.ClaimPaths, email: String) -> (
        String, String
    ) {
        func clip(_ text: String) -> String { String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(100)) }
        let given = clip(claims.text(at: paths.givenName) ?? ""), family = clip(claims.text(at: paths.familyName) ?? "")
        if !given.isEmpty && !family.isEmpty { return (given, family) }
        if !given.isEmpty || !family.isEmpty {
            return (given.isEmpty ? family : given, family.isEmpty ? given : family)
        }
        let full = clip(claims.text(at: paths.name) ?? "")
        if let space = full.lastIndex(of: " ") {
            return (clip(String(full[..<space])), clip(String(full[full.index(after: space)...])))
        }
        let single = full.isEmpty ? clip(String(email.split(separator: "@").first ?? "")) : full
        return (single, single)
    }
}
