import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import RosterClient
import RosterDomain
import RosterProtocol
import RosterTLS
#if canImport(Glibc)
    import Glibc
#endif

// What the attacks are made of: the busy schedule, frames, connections, the peak-memory
// watcher and a raw socket.

extension AttackBenchmark {
    /// An import of a schedule of 36 layers of hourly rotations: about 315,000 turns and
    /// stretches in a year, so a year of it is allowed and takes most of a query's budget.
    static let importDense: RosterMessage = {
        let people = [
            Employee(id: "x1", firstName: "Xan", lastName: "One"),
            Employee(id: "x2", firstName: "Xan", lastName: "Two"),
        ]
        let dense = ScheduleDefinition(
            id: "", name: "Dense", zone: "Europe/Berlin",
            layers: (0..<36).map { level in
                ScheduleLayer(
                    level: level,
                    rotations: [
                        Rotation(
                            id: "h\(level)", slots: [["x1"], ["x2"]], cadence: .hours(1),
                            handoff: LocalDateTime(year: 2026, month: 1, day: 1, minute: level))
                    ])
            })
        let file = RosterExport.snapshotJSON(
            RosterState(tenant: Tenant(id: "demo", name: "Demo"), employees: people, schedules: [dense]))
        return .importData(
            .with {
                $0.format = .snapshotJson; $0.data = file
            })
    }()

    /// An import of a schedule of three layers of minutely rotations under a weekly one: about
    /// 300,000 turns and stretches in 35 days, within the 400,000 stored definitions may take,
    /// so a year of it is the most a query's budget allows.
    static let importStall: RosterMessage = {
        let people = [
            Employee(id: "x1", firstName: "Xan", lastName: "One"),
            Employee(id: "x2", firstName: "Xan", lastName: "Two"),
        ]
        let stall = ScheduleDefinition(
            id: "", name: "Stall", zone: "UTC",
            layers: (0..<3).map { level in
                ScheduleLayer(
                    level: level,
                    rotations: [
                        Rotation(
                            id: "m\(level)", slots: [["x1"], ["x2"]], cadence: .minutes(1),
                            handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                    ])
            } + [
                ScheduleLayer(
                    level: 99,
                    rotations: [
                        Rotation(
                            id: "w", slots: [["x1"]], cadence: .weeks(1),
                            handoff: LocalDateTime(year: 2026, month: 1, day: 1))
                    ])
            ])
        let file = RosterExport.snapshotJSON(
            RosterState(tenant: Tenant(id: "demo", name: "Demo"), employees: people, schedules: [stall]))
        return .importData(
            .with {
                $0.format = .snapshotJson; $0.data = file
            })
    }()

    static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static let yearOfBusy = RosterMessage.getFinalSchedule(
        .with {
            $0.schedule = "Busy"
            $0.fromMs = 1_767_225_600_000
            $0.toMs = 1_767_225_600_000 + 366 * 86_400_000
        })

    static func hello(token: String) -> Roster_V1_Hello {
        .with {
            $0.minVersion = WireProtocol.supportedVersions.lowerBound
            $0.maxVersion = WireProtocol.supportedVersions.upperBound
            $0.token = token
        }
    }

    static func frame(_ message: RosterMessage, _ id: UInt32) -> [UInt8] {
        Array(message.frame(requestID: id).encoded().readableBytesView)
    }

    static func connect(port: Int, tls: TLSContext?, tenant: String, token: String) async throws -> RosterConnection {
        try await RosterConnection.connect(
            host: "127.0.0.1", port: port, tls: tls, timeout: .seconds(60),
            hello: .with {
                $0.tenant = tenant
                $0.token = token
            })
    }

    /// An hourly rotation of three: a year of it is 2,000 stretches, the most one answer carries.
    static func addBusySchedule(_ admin: RosterConnection) async throws {
        _ = try await admin.request(
            .editSchedule(
                .with {
                    $0.upsertSchedule = .with {
                        $0.name = "Busy"; $0.zone = "Europe/Berlin"
                    }
                }))
        _ = try await admin.request(
            .editSchedule(
                .with {
                    $0.schedule = "Busy"
                    $0.upsertRotation = .with {
                        $0.rotation = .with {
                            $0.cadence = .with {
                                $0.unit = .hours; $0.count = 1
                            }
                            $0.handoff = "2026-01-01T00:00"
                            $0.slots = ["Ada Lovelace", "Alan Turing", "Grace Hopper"].map { name in
                                .with { $0.employeeIds = [name] }
                            }
                        }
                    }
                }))
    }

    /// Runs roster-server's administration (tenant, token); its standard output.
    @discardableResult
    static func tool(_ executable: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("roster-server \(arguments.joined(separator: " ")) failed")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The most resident memory a process reached while watched (sampled every 100 ms).
final class PeakMemory: @unchecked Sendable {  // `peak` is written by the watching task and read after it ends
    let pid: Int32
    var peak = 0
    init(pid: Int32) { self.pid = pid }
    func watch() async {
        while !Task.isCancelled {
            peak = max(peak, residentBytes(pid: pid))
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// A TCP connection to 127.0.0.1 that never reads, with a small receive buffer and a connect and
/// sends that give up after `timeout`.
final class RawAttackSocket: @unchecked Sendable {
    private let fd: Int32

    /// - Parameter timeout: seconds a connect or a send may wait.
    init(port: Int, timeout seconds: Double = 0.2) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size: Int32 = 4_096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withLoopbackAddress(port: port) { address, length in connect(fd, address, length) }.result
        guard result == 0 else {
            Glibc.close(fd)
            throw BenchError("connect: errno \(errno)")
        }
    }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(fd) }
}
