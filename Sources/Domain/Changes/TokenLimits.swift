/// What a personal token may do beyond reading (docs/SSO.md): nothing (`readOnly`), or what its
/// person may do themselves, on any schedule or only on `schedules`. Stored as the token's scope,
/// `personal:read` or `personal:act`, then `;schedules=ID,ID` when limited; this type is the one
/// reader and writer of that text.
public struct TokenLimits: Sendable, Hashable {
    public var readOnly: Bool
    /// Schedule ids; empty: any schedule.
    public var schedules: [String]

    public init(readOnly: Bool, schedules: [String] = []) {
        self.readOnly = readOnly
        self.schedules = schedules
    }

    /// The most schedules one token names.
    public static let maxSchedules = 50

    public var scope: String {
        (readOnly ? "personal:read" : "personal:act")
            + (schedules.isEmpty ? "" : ";schedules=" + schedules.joined(separator: ","))
    }

    /// The limits a stored scope says; nil for any other scope (a calendar feed's, or none).
    public init?(scope: String?) {
        guard let scope, scope.hasPrefix("personal:"), scope.utf8.count <= 4_096 else { return nil }
        let parts = scope.split(separator: ";", maxSplits: 1)
        switch parts[0] {
        case "personal:read": readOnly = true
        case "personal:act": readOnly = false
        default: return nil
        }
        schedules = []
        if parts.count == 2 {
            guard parts[1].hasPrefix("schedules=") else { return nil }
            schedules = parts[1].dropFirst("schedules=".count).split(separator: ",").map(String.init)
            guard !schedules.isEmpty, schedules.count <= Self.maxSchedules else { return nil }
        }
    }

    /// Why a change of `scheduleID` (nil: one of no single schedule, such as time off) is not
    /// this token's to make; nil when it is.
    public func refusal(changing scheduleID: String?, state: RosterState) -> RosterError? {
        if readOnly { return .denied("this personal token may only read (it was made read-only)") }
        guard let scheduleID, !schedules.isEmpty, !schedules.contains(scheduleID) else { return nil }
        let names = schedules.map { state.schedules[$0]?.name ?? $0 }.joined(separator: ", ")
        return .denied(
            "this personal token acts only on \(names), not on \(state.schedules[scheduleID]?.name ?? scheduleID)")
    }
}
