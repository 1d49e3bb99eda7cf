import RosterDomain
import RosterProtocol

/// An error on its way to a client as an Error frame.
package struct WireError: Error, Equatable {
    package var body: Roster_V1_Error

    package init(_ code: Roster_V1_ErrorCode, _ message: String, retryable: Bool = false) {
        body = Roster_V1_Error.with {
            $0.code = code
            $0.message = message
            $0.retryable = retryable
        }
    }

    package init(_ error: RosterError) {
        switch error {
        case .invalid(let violations), .alreadyExists(let violations):
            if case .alreadyExists = error {
                self.init(.alreadyExists, error.description)
            } else {
                self.init(.invalidArgument, error.description)
            }
            body.violations = violations.map { violation in
                Roster_V1_FieldViolation.with {
                    $0.location = violation.location
                    $0.field = violation.field
                    $0.description_p = violation.message
                }
            }
        case .notFound(_, let suggestions):
            self.init(.notFound, error.description)
            body.suggestions = suggestions
        case .overBudget, .full:
            self.init(.resourceExhausted, error.description)
        case .denied:
            self.init(.permissionDenied, error.description)
        case .notNow:
            self.init(.failedPrecondition, error.description)
        case .missing:
            self.init(.notFound, error.description)
        }
    }

    init(_ error: ProtocolError) {
        self.init(error.errorCode, error.description)
    }
}
