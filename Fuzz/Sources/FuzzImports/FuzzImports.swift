import Foundation
import NIOCore
import NIOEmbedded
import RosterDomain
import RosterProtocol
import RosterServerCore
import RosterStore
import RosterStoreSQLite

/// Every format an admin can send a plan in, planned and validated as the server does before it
/// stores anything: the first byte picks an import format (snapshot JSON, PagerDuty JSON, legacy
/// app JSON, employees CSV, shifts CSV: `RosterImport.plan` then `applyingValidated`), or an admin
/// request whose body is the rest (EditSchedule, Import, UpsertEmployee, AddShift, SetMotd),
/// planned and staged against the demo tenant (`InboundPathHarness.planAsAdmin`). No crash; a
/// plan that is accepted applies.

private let loop = EmbeddedEventLoop()
private let dataDirectory = NSTemporaryDirectory() + "roster-fuzz-imports-\(getpid())"
private let harness: InboundPathHarness = {
    atexit { try? FileManager.default.removeItem(atPath: dataDirectory) }
    try! DataDirectory(dataDirectory).create()
    let store = try! SQLiteRosterStore(path: DataDirectory(dataDirectory).database)
    return try! InboundPathHarness(loop: loop, store: store, dataDirectory: dataDirectory, now: 1_767_225_600_000)
}()

private let formats: [ImportFormat] = [.snapshotJSON, .pagerDutyJSON, .legacyAppJSON, .employeesCSV, .shiftsCSV]
private let base = RosterState(
    tenant: Tenant(id: "t", name: "T"),
    employees: [
        Employee(id: "e1", firstName: "Ada", lastName: "Lovelace"),
        Employee(id: "e2", firstName: "Alan", lastName: "Turing"),
    ])

public func fuzzImports(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let body = Data(bytes: data + 1, count: size - 1)
    let choice = Int(data[0]) % (formats.count + 5)
    var counter = 0
    if choice < formats.count {
        if let plan = try? RosterImport.plan(
            format: formats[choice], data: body, current: base, now: 1_767_225_600_000,
            newID: {
                counter += 1; return "\($0)_\(counter)"
            })
        {
            precondition(
                (try? base.applyingValidated(plan.changes, now: 1_767_225_600_000)) != nil,
                "an accepted plan does not apply")
        }
        return 0
    }
    let type: MessageType = [.editSchedule, .importData, .upsertEmployee, .addShift, .setMotd][choice - formats.count]
    guard let message = try? RosterMessage.decode(Frame(type: type, requestID: 1, body: ByteBuffer(bytes: body))) else {
        return 0
    }
    _ = harness.planAsAdmin(message)
    return 0
}
