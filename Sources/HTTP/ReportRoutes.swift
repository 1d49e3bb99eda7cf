import Foundation
import NIOCore
import RosterDomain
import RosterProtocol
import RosterServerCore

/// `GET /v1/reports/hours` and `GET /v1/reports/quality` (docs/HTTP.md, "Reports"): the
/// protocol's GetReport, answered as JSON or, with `format=csv`, as CSV — the same text as
/// `roster-client report … --json|--csv`.
extension HTTPAPI {
    /// The most holidays one query string may list.
    static let maxQueryHolidays = HoursReportOptions.maxHolidays

    func report(_ request: Request, kind: Roster_V1_GetReportRequest.Kind) async -> Reply {
        let (core, loop, credential, tenant): (ServerCore, any EventLoop, Credential, TenantRuntime)
        switch bearer(request) {
        case .success(let found): (core, loop, credential, tenant) = found
        case .failure(let refusal): return refusal.reply
        }
        if let refusal = ReportAnswer.refusal(
            kind, isAdmin: credential.role == .admin, employeeID: credential.employeeID)
        {
            return Self.problem(refusal)
        }
        let csv: Bool
        switch request.query["format"] {
        case nil, "json": csv = false
        case "csv": csv = true
        case let other?: return Self.problem(400, "format is json or csv (got \"\(other.prefix(20))\")")
        }
        let now = core.clock.now()
        let from: UnixMillis, to: UnixMillis
        do {
            let end = try Self.instant(request.query["to"], name: "to") ?? now
            let start = try Self.instant(request.query["from"], name: "from")
            guard let start else {
                return Self.problem(400, "give from (ISO 8601), e.g. from=2026-11-01T00:00:00Z; to defaults to now")
            }
            (from, to) = (start, end)
        } catch {
            return error.reply
        }
        let holidays = (request.query["holidays"] ?? "").split(separator: ",").map(String.init)
        guard holidays.count <= Self.maxQueryHolidays else {
            return Self.problem(400, "holidays lists \(holidays.count) dates: at most \(Self.maxQueryHolidays)")
        }
        let query = Roster_V1_GetReportRequest.with {
            $0.kind = kind
            $0.fromMs = from
            $0.toMs = to
            $0.schedule = request.query["schedule"] ?? ""
            $0.policy = request.query["policy"] ?? ""
            $0.person = request.query["person"] ?? ""
            $0.zone = request.query["zone"] ?? ""
            $0.businessHours = request.query["business_hours"] ?? ""
            $0.workdays = request.query["workdays"] ?? ""
            $0.night = request.query["night"] ?? ""
            $0.holidays = holidays
        }
        let answer: Result<RosterMessage, WireError>
        do {
            answer = try await core.perform(
                .getReport(query), on: tenant, credential: credential, address: request.peer, loop: loop
            ).get()
        } catch {
            return Self.problem(503, "the server is stopping")
        }
        switch answer {
        case .success(.report(let report)):
            switch (kind, csv) {
            case (.quality, true) where report.hasPolicyQuality:
                return Reply(
                    status: 200, contentType: "text/csv; charset=utf-8; header=present",
                    body: Array(ReportFormats.policyQualityCSV(report).utf8))
            case (.quality, false) where report.hasPolicyQuality:
                return Reply(
                    status: 200, contentType: "application/json",
                    body: Array(ReportFormats.policyQualityJSON(report)))
            case (.quality, true):
                return Reply(
                    status: 200, contentType: "text/csv; charset=utf-8; header=present",
                    body: Array(ReportFormats.qualityCSV(report).utf8))
            case (.quality, false):
                return Reply(
                    status: 200, contentType: "application/json", body: Array(ReportFormats.qualityJSON(report)))
            case (_, true):
                return Reply(
                    status: 200, contentType: "text/csv; charset=utf-8; header=present",
                    body: Array(ReportFormats.hoursCSV(report).utf8))
            default:
                return Reply(status: 200, contentType: "application/json", body: Array(ReportFormats.hoursJSON(report)))
            }
        case .success(let other): return Self.problem(500, "unexpected answer \(other.type)")
        case .failure(let error): return Self.problem(error)
        }
    }
}
