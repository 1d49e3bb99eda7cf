import RosterDomain

extension Caller {
    /// The demo tenant's plan rolling forward by itself.
    static let demoRoller = Caller(tokenID: nil, name: "demo roller", isAdmin: true)

    /// The holder of `credential` (nil: an anonymous reader on loopback), from `address`.
    init(_ credential: Credential?, address: String) {
        self.init(
            tokenID: credential?.tokenID,
            name: credential.map { $0.label.isEmpty ? ($0.tokenID ?? "") : $0.label } ?? "",
            address: address, isAdmin: credential?.role == .admin, employeeID: credential?.employeeID,
            limits: credential?.limits)
    }
}
