/// Who may open one more event stream (`GET /v1/events`). A stream holds its connection for as
/// long as its reader stays, so without a cap one token could take every HTTP connection and
/// leave health checks, pages and calendar feeds of every tenant answering 503. Each stream
/// counts against its principal (the token it reads with, directly or through a web session made
/// from it; anonymous readers on loopback are one principal), against its peer's address, and
/// against the listener's total, which stays below the connection cap so that short requests
/// always find a connection. The decision is this value's; `HTTPSide` holds it under a lock.
package struct StreamAdmission: Sendable {
    package struct Limits: Sendable, Equatable {
        /// Streams one token (or its sessions) may hold at once.
        package var perPrincipal: Int
        /// Streams one peer address may hold at once.
        package var perAddress: Int
        /// Streams the listener holds at once.
        package var total: Int

        package init(perPrincipal: Int, perAddress: Int, total: Int) {
            (self.perPrincipal, self.perAddress, self.total) = (perPrincipal, perAddress, total)
        }

        /// The total for a listener of `connections`: a quarter of them (at least one) are kept
        /// for what is not a stream.
        package static func total(forConnections connections: Int) -> Int {
            max(1, connections - max(1, connections / 4))
        }
    }

    /// Which bound a refused stream met.
    package enum Refusal: Error, Equatable {
        case principal(Int), address(Int), total(Int)

        /// The problem's detail: which bound, and what to do.
        package var detail: String {
            switch self {
            case .principal(let limit): "this token already holds \(limit) event streams; close one first"
            case .address(let limit): "this address already holds \(limit) event streams; close one first"
            case .total(let limit): "the server holds \(limit) event streams, its most; try again later"
            }
        }
    }

    /// One admitted stream, given back when it ends.
    package struct Ticket: Hashable, Sendable {
        package var principal: String
        package var address: String
    }

    package let limits: Limits
    package private(set) var byPrincipal: [String: Int] = [:]
    package private(set) var byAddress: [String: Int] = [:]
    package private(set) var open = 0

    package init(limits: Limits) { self.limits = limits }

    /// The principal key of a reader: its token's id, or nil for an anonymous reader.
    package static func principal(tokenID: String?) -> String { tokenID.map { "token:" + $0 } ?? "anonymous" }

    package mutating func admit(principal: String, address: String) -> Result<Ticket, Refusal> {
        if open >= limits.total { return .failure(.total(limits.total)) }
        if byPrincipal[principal, default: 0] >= limits.perPrincipal {
            return .failure(.principal(limits.perPrincipal))
        }
        if byAddress[address, default: 0] >= limits.perAddress { return .failure(.address(limits.perAddress)) }
        open += 1
        byPrincipal[principal, default: 0] += 1
        byAddress[address, default: 0] += 1
        return .success(Ticket(principal: principal, address: address))
    }

    package mutating func release(_ ticket: Ticket) {
        open -= 1
        byPrincipal[ticket.principal, default: 1] -= 1
        if byPrincipal[ticket.principal] == 0 { byPrincipal[ticket.principal] = nil }
        byAddress[ticket.address, default: 1] -= 1
        if byAddress[ticket.address] == 0 { byAddress[ticket.address] = nil }
    }
}
