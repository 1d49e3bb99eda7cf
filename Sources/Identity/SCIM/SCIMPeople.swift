import RosterDomain

/// What the directory shows of a provisioned person (docs/SSO.md, "What SCIM sets"): derived
/// from their User and the Groups they are in, every time either changes, so the same
/// resources always give the same person.
public enum SCIMPeople {
    /// The person `user` describes. What SCIM does not speak of (projects, biography, photo,
    /// chat handles, type) is kept from `existing`.
    /// - Parameters:
    ///   - groups: every Group of the tenant; those with the person as a member give their team.
    ///   - teamGroups: a group's team when it is not the group's own name (`--team-group G=T`).
    ///   - roleGroups: groups that grant a role and so set no team (`--admin-group`, `--reader-group`).
    public static func person(
        id: String, user: SCIMResource, groups: [SCIMResource], existing: Employee?, teamGroups: [String: String],
        roleGroups: Set<String>
    ) -> Employee {
        let attributes = user.attributes
        var person = existing ?? Employee(id: id, firstName: "", lastName: "")
        person.id = id
        let name = attributes["name"]
        var first = name?["givenName"]?.string ?? ""
        var last = name?["familyName"]?.string ?? ""
        if first.isEmpty || last.isEmpty {
            // A person needs both: the rest from displayName, the formatted name, then userName.
            let whole =
                [attributes["displayName"]?.string, name?["formatted"]?.string, user.name]
                .compactMap { $0?.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? id
            let words = whole.split(separator: " ")
            let (head, tail) =
                words.count > 1
                ? (words.dropLast().joined(separator: " "), String(words.last!)) : (whole, whole)
            if first.isEmpty { first = head }
            if last.isEmpty { last = tail }
        }
        person.firstName = first
        person.lastName = last
        person.email = preferred(attributes["emails"]) ?? ""
        person.phone = preferred(attributes["phoneNumbers"]) ?? ""
        person.position = attributes["title"]?.string ?? ""
        person.team =
            attributes[SCIMSchema.enterpriseUser]?["department"]?.string ?? team(
                of: id, in: groups, teamGroups, roleGroups) ?? ""
        person.deactivated = attributes["active"] == .bool(false)
        return person
    }

    /// The team the first (by name) of the person's groups stands for.
    static func team(
        of id: String, in groups: [SCIMResource], _ teamGroups: [String: String], _ roleGroups: Set<String>
    )
        -> String?
    {
        groups.filter { group in
            !roleGroups.contains(group.name) && members(of: group).contains(id)
        }.map { teamGroups[$0.name] ?? $0.name }.sorted().first
    }

    /// The names of the groups `id` is a member of.
    public static func groupNames(of id: String, in groups: [SCIMResource]) -> Set<String> {
        Set(groups.filter { members(of: $0).contains(id) }.map(\.name))
    }

    /// Every member's group names, for a sign-in to add to its token's groups claim.
    public static func groupNamesByMember(_ groups: [SCIMResource]) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for group in groups { for member in members(of: group) { found[member, default: []].insert(group.name) } }
        return found
    }

    /// The ids of a group's members.
    public static func members(of group: SCIMResource) -> [String] {
        guard case .array(let items)? = group.attributes["members"] else { return [] }
        return items.compactMap { $0["value"]?.string }
    }

    /// `group` without the members whose ids are in `gone`.
    public static func dropping(members gone: Set<String>, from group: SCIMResource) -> SCIMResource {
        guard case .array(let items)? = group.attributes["members"] else { return group }
        var kept = group
        kept.attributes["members"] = .array(items.filter { !gone.contains($0["value"]?.string ?? "") })
        return kept
    }

    /// The primary value of a multi-valued attribute, else its first.
    static func preferred(_ values: JSONValue?) -> String? {
        guard case .array(let items)? = values else { return nil }
        let chosen = items.first { $0["primary"] == .bool(true) } ?? items.first
        return chosen?["value"]?.string
    }
}
