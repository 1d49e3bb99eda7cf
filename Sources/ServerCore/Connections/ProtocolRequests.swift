import RosterDomain
import RosterProtocol

/// Every request a client may send after Hello, declared once: who may send it, where it is
/// answered, whether it counts against the connection's requests in flight, and the work pool
/// lane its work takes. `ConnectionStateMachine.dispatch` reads this table and nothing else to
/// admit a request; the work is bounded where it runs (a query by its resolution budget, a change
/// by the tenant's queue and the same budget).
package enum ProtocolRequests {
    /// Who may send a request (beyond an authenticated Hello, which every one needs).
    package enum Who: Equatable {
        /// Any credential: readers, people and admins.
        case anyone
        /// Admin tokens only; `refusal` begins the error's message.
        case admin(refusal: String)
        /// Admins, and a token bound to a person for what the person may do on a schedule that
        /// allows it (`ScheduleEdit.authorize` decides the rest with the schedule at hand).
        case adminOrPerson
        /// Admins, and a person's token for their own hours (`ReportAnswer.refusal`).
        case report
    }

    /// Where a request is answered.
    package enum Path: Equatable {
        /// On the connection's event loop at once, not in flight: ping, pong, "on duty now" from
        /// the cached encoding, subscribing and unsubscribing.
        case onLoop
        /// On the tenant work pool against a consistent view (`Queries.answer`).
        case query
        /// In the tenant's change queue (`ServerCore.perform`): changes, and the reads that must
        /// see every change acknowledged before them (the audit log; a calendar link, which is
        /// minted and recorded; a report, read behind the queue and computed off it).
        case tenantQueue
    }

    package struct Rule: Equatable {
        package var who: Who
        package var path: Path
        /// The work pool lane of its work.
        package var lane: TenantWorkPool.Lane
    }

    /// The rule for `message`; nil for what clients never send after Hello (Hello again, and the
    /// server's own messages), which ends the connection.
    package static func rule(_ message: RosterMessage) -> Rule? {
        switch message {
        case .ping, .pong, .subscribe, .unsubscribe:
            Rule(who: .anyone, path: .onLoop, lane: .short)
        case .getOnDuty(let query) where !query.hasAtMs && query.schedule.isEmpty:
            Rule(who: .anyone, path: .onLoop, lane: .short)
        case .getOnDuty, .listEmployees, .search, .getEmployee, .listShifts, .getSnapshot, .listSchedules:
            Rule(who: .anyone, path: .query, lane: .short)
        case .getNextOnDuty:
            // Up to a year ahead for someone rarely on duty.
            Rule(who: .anyone, path: .query, lane: .long)
        case .getEscalation:
            // A timeline of up to 200 steps, each of up to 50 schedules.
            Rule(who: .anyone, path: .query, lane: .long)
        case .getFinalSchedule(let query):
            Rule(who: .anyone, path: .query, lane: .window(query.fromMs, query.toMs))
        case .setMotd, .upsertEmployee:
            Rule(who: .admin(refusal: "changing the plan needs an admin token"), path: .tenantQueue, lane: .short)
        case .deleteEmployee, .addShift, .deleteShift, .importData:
            Rule(who: .admin(refusal: "changing the plan needs an admin token"), path: .tenantQueue, lane: .long)
        case .editSchedule:
            Rule(who: .adminOrPerson, path: .tenantQueue, lane: .long)
        case .applyDefinition:
            Rule(who: .admin(refusal: "applying a definition is for admins"), path: .tenantQueue, lane: .long)
        case .notificationAdmin:
            Rule(who: .admin(refusal: "webhooks and reminders are for admins"), path: .tenantQueue, lane: .long)
        case .getAudit:
            Rule(who: .admin(refusal: "the audit log is for admins"), path: .tenantQueue, lane: .long)
        case .identityAdmin:
            Rule(who: .admin(refusal: "sign-in settings are for admins"), path: .tenantQueue, lane: .long)
        case .getCalendar:
            Rule(who: .anyone, path: .tenantQueue, lane: .long)
        case .personalTokens:
            // Who holds which token is decided by `ServerCore.personalTokens`.
            Rule(who: .anyone, path: .tenantQueue, lane: .short)
        case .push:
            // Whose subscriptions are whose is decided by the notifier (`Notifier.push`).
            Rule(who: .anyone, path: .tenantQueue, lane: .short)
        case .getReport:
            Rule(who: .report, path: .tenantQueue, lane: .long)
        default:
            nil
        }
    }

    /// Why `credential` may not send `message` under `who`; nil when it may.
    static func refusal(_ who: Who, _ message: RosterMessage, credential: Credential) -> WireError? {
        switch who {
        case .anyone:
            return nil
        case .admin(let refusal):
            guard credential.role != .admin else { return nil }
            return WireError(.permissionDenied, "\(refusal); this connection has \(credential.described)")
        case .adminOrPerson:
            guard credential.role != .admin, credential.employeeID == nil else { return nil }
            if case .editSchedule(let edit) = message, ScheduleChangeRequest(edit).isSelfService {
                return WireError(
                    .permissionDenied,
                    "taking duty and cover requests need a token bound to a person "
                        + "(roster-server token create --employee NAME); this connection has \(credential.described)")
            }
            return WireError(
                .permissionDenied, "changing the plan needs an admin token; this connection has \(credential.described)"
            )
        case .report:
            guard case .getReport(let request) = message else { return nil }
            return ReportAnswer.refusal(
                request.kind, isAdmin: credential.role == .admin, employeeID: credential.employeeID)
        }
    }
}
