import Foundation

/// An instant as Unix milliseconds, UTC: the representation used on the wire and in storage.
public typealias UnixMillis = Int64

extension UnixMillis {
    /// The current wall-clock time.
    public static var now: UnixMillis { UnixMillis(Date().timeIntervalSince1970 * 1000) }
}

public enum EmployeeType: String, Sendable, Hashable, Codable, CaseIterable {
    case unspecified = ""
    case fullTime = "full-time"
    case partTime = "part-time"
    case contractor
}

/// A person in a tenant's directory.
public struct Employee: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var firstName: String
    public var lastName: String
    public var email: String
    public var phone: String
    public var position: String
    public var team: String
    public var projects: [String]
    public var biography: String
    public var photoURL: String
    public var type: EmployeeType
    /// Handles by chat platform name (`ChatPlatform`): how chat posts mention the person.
    public var chat: [String: String]
    /// Gone from the organisation (SCIM `active: false`): kept, so their history stays in
    /// reports, but they sign in no more and the directory lists them apart.
    public var deactivated: Bool

    public init(
        id: String = "", firstName: String, lastName: String, email: String = "", phone: String = "",
        position: String = "", team: String = "", projects: [String] = [], biography: String = "",
        photoURL: String = "", type: EmployeeType = .unspecified, chat: [String: String] = [:],
        deactivated: Bool = false
    ) {
        self.deactivated = deactivated
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.phone = phone
        self.position = position
        self.team = team
        self.projects = projects
        self.biography = biography
        self.photoURL = photoURL
        self.type = type
        self.chat = chat
    }

    public var fullName: String { "\(firstName) \(lastName)" }

    private enum CodingKeys: String, CodingKey {
        case id, firstName, lastName, email, phone, position, team, projects, biography, photoURL, type, chat
        case deactivated
    }

    /// A record written before chat handles (or deactivation) existed reads with none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            firstName: try container.decode(String.self, forKey: .firstName),
            lastName: try container.decode(String.self, forKey: .lastName),
            email: try container.decode(String.self, forKey: .email),
            phone: try container.decode(String.self, forKey: .phone),
            position: try container.decode(String.self, forKey: .position),
            team: try container.decode(String.self, forKey: .team),
            projects: try container.decode([String].self, forKey: .projects),
            biography: try container.decode(String.self, forKey: .biography),
            photoURL: try container.decode(String.self, forKey: .photoURL),
            type: try container.decode(EmployeeType.self, forKey: .type),
            chat: try container.decodeIfPresent([String: String].self, forKey: .chat) ?? [:],
            deactivated: try container.decodeIfPresent(Bool.self, forKey: .deactivated) ?? false)
    }
}

/// One stretch of duty: the half-open interval [start, end).
public struct Shift: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var employeeID: String
    public var start: UnixMillis
    public var end: UnixMillis
    public var role: String
    /// The schedule this one-off shift belongs to; "" is the tenant's default schedule (where
    /// every shift made before schedules existed lives).
    public var scheduleID: String

    public init(
        id: String = "", employeeID: String, start: UnixMillis, end: UnixMillis, role: String = "",
        scheduleID: String = ""
    ) {
        self.id = id
        self.employeeID = employeeID
        self.start = start
        self.end = end
        self.role = role
        self.scheduleID = scheduleID == ScheduleDefinition.defaultID ? "" : scheduleID
    }

    public func contains(_ instant: UnixMillis) -> Bool { start <= instant && instant < end }
}

/// A tenant: one organisation's directory, plan and message of the day.
public struct Tenant: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var motd: String

    public init(id: String, name: String, motd: String = "") {
        self.id = id
        self.name = name
        self.motd = motd
    }

    /// What a tenant id may be: 1-63 lowercase ASCII letters, digits, '-' or '_', not starting
    /// with '-' or '_'.
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.utf8.first, id.utf8.count <= 63, first != UInt8(ascii: "-"), first != UInt8(ascii: "_")
        else { return false }
        return id.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }

    /// How `isValidID` is said in an error.
    public static let idRule = "a tenant id is 1-63 lowercase letters, digits, '-' or '_'"
}

/// One change to a tenant's data. A committed revision carries one or more of these.
public enum RosterChange: Sendable, Hashable {
    case employeeUpserted(Employee)
    case employeeDeleted(id: String)
    case shiftAdded(Shift)
    case shiftDeleted(id: String)
    case motdSet(String)
    /// A schedule's whole definition (layers, rotations, overrides; not its one-off shifts),
    /// created or replaced: one definition change is one revision.
    case scheduleUpserted(ScheduleDefinition)
    /// Deleting a schedule also deletes its one-off shifts (said on the wire first).
    case scheduleDeleted(id: String)
    /// A person's time off, added or changed.
    case timeOffSet(TimeOff)
    case timeOffDeleted(id: String)
    /// A tenant holiday calendar, added or replaced whole.
    case holidaysSet(HolidaySet)
    case holidaysDeleted(name: String)
    /// An escalation policy, added or replaced whole (issue #56).
    case escalationPolicySet(EscalationPolicy)
    case escalationPolicyDeleted(id: String)
    /// A service, added or replaced whole.
    case serviceSet(PagingService)
    case serviceDeleted(id: String)
}
