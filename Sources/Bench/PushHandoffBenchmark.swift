import Foundation
import RosterClient
import RosterIdentity
import RosterProtocol
import RosterServer
import RosterTLS

/// Issue #55's measure: one handoff on one schedule that notifies `people × perPerson` Web Push
/// subscriptions, sent by a release roster-server held to one core to a loopback push service
/// that answers 201 (`PushSink`, on the other core). Everyone is put on duty at the same instant
/// by one SHIFTS_CSV import made before anyone subscribes (so nothing else is queued), then
/// each person adds their subscriptions through the protocol as `roster-client push add` does.
/// Reports the server's resident memory and store growth per stored subscription, and from the
/// handoff instant: the first and last message at the push service, the rate between them, the
/// server's CPU per message (deciding, encrypting, signing, sending, recording) and how far its
/// resident memory rose while they went.
package struct PushHandoffBenchmark {
    package var people: Int
    package var perPerson: Int
    package var lead: Double
    package var serverExecutable: URL

    package init(people: Int, perPerson: Int, lead: Double, serverExecutable: URL) {
        (self.people, self.perPerson, self.lead, self.serverExecutable) = (people, perPerson, lead, serverExecutable)
    }

    package struct Result {
        package var subscriptions: Int
        package var sent: Int
        package var residentPerSubscription: Double
        /// How far the server's resident memory rose above what it held before the handoff, at its
        /// peak while the messages went; nil where the peak cannot be reset.
        package var residentPeakGrowth: Int?
        package var storePerSubscription: Double
        package var firstMillis: Double
        package var lastMillis: Double
        package var perSecond: Double
        package var cpuMillisPerMessage: Double
    }

    package func run() async throws -> Result {
        let sink = try await PushSink.start()
        defer { Task { await sink.stop() } }
        let running = try HTTPBenchServer(executable: serverExecutable)
        defer { running.stop() }
        let server = running.process
        // The server on core 0 (every thread it has, and those it makes later inherit it); this
        // process, the push service and the clients, on core 1.
        try pinThreads(pid: server.pid, cpu: 0)
        try pinThreads(pid: getpid(), cpu: 1)

        let admin = try await running.connectAdmin()
        var csv = "id,first_name,last_name,email,phone,position,team\n"
        for index in 0..<people {
            csv += "p\(index),Person,\(index),person\(index)@example.com,+1 555 \(1000 + index),Engineer,Team 1\n"
        }
        try await Self.importing(admin, .employeesCsv, csv)
        // The handoff: everyone on duty at `handoff`, on the default schedule.
        let handoffDate = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + lead).rounded(.up))
        let format = ISO8601DateFormatter()
        let (start, end) = (format.string(from: handoffDate), format.string(from: handoffDate.addingTimeInterval(3600)))
        var shifts = "id,employee,start,end\n"
        for index in 0..<people { shifts += "s\(index),p\(index),\(start),\(end)\n" }
        try await Self.importing(admin, .shiftsCsv, shifts)
        progress("\(people) people on duty from \(start)")
        let tenant = admin.welcome.tenant.id
        await admin.close()

        let administration = try await StoreAdministration.open(dataDirectory: running.directory)
        var tokens: [String] = []
        for index in 0..<people {
            tokens.append(
                try await administration.createToken(
                    tenant: tenant, role: .reader, expiresIn: nil, employee: "p\(index)"
                ).text)
        }
        await administration.close()
        progress("\(people) tokens made")

        // Sixteen subscribers' keys, shared out: the server encrypts for each message anyway.
        var keys: [(String, String)] = []
        for _ in 0..<16 {
            keys.append(
                (Base64URL.encode(try PrivateKey.generate().publicPoint), Base64URL.encode(Crypto.randomBytes(16))))
        }
        let residentBefore = residentBytes(pid: server.pid)
        let storeBefore = directoryBytes(running.directory)
        let (port, tokenList, keyList) = (running.port, tokens, keys)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask { [people, perPerson, sink] in
                    for index in stride(from: worker, to: people, by: 8) {
                        let connection = try await Self.connect(port: port, token: tokenList[index])
                        for copy in 0..<perPerson {
                            let (p256dh, auth) = keyList[(index * perPerson + copy) % keyList.count]
                            guard
                                case .pushResult = try await connection.request(
                                    .push(
                                        .with {
                                            $0.add = .with {
                                                $0.endpoint = "http://127.0.0.1:\(sink.port)/push/\(index)-\(copy)"
                                                $0.p256Dh = p256dh; $0.auth = auth; $0.format = "web-push"
                                            }
                                        }))
                            else { throw BenchError("a subscription was refused") }
                        }
                        await connection.close()
                    }
                }
            }
            try await group.waitForAll()
        }
        progress("\(people * perPerson) subscriptions added")
        try await Task.sleep(for: .seconds(1))
        let subscriptions = people * perPerson
        let residentAfter = residentBytes(pid: server.pid)
        let storeAfter = directoryBytes(running.directory)

        let untilHandoff = handoffDate.timeIntervalSinceNow
        guard untilHandoff > 0.5 else {
            throw BenchError("subscribing took past the handoff: give a longer --lead than \(lead) s")
        }
        let handoffNanos = nanos() + UInt64(untilHandoff * 1e9)
        try await Task.sleep(for: .seconds(untilHandoff - 0.3))
        let residentAtHandoff = residentBytes(pid: server.pid)
        let peakReset = resetResidentPeak(pid: server.pid)
        let cpuBefore = cpuMillis(pid: server.pid)
        let deadline = Date().addingTimeInterval(300)
        while sink.arrived.count < subscriptions, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let cpuAfter = cpuMillis(pid: server.pid)
        let peak = peakReset ? residentBytes(pid: server.pid, peak: true) - residentAtHandoff : nil
        let arrived = sink.arrived
        guard let first = arrived.first, let last = arrived.last else {
            throw BenchError("nothing reached the push service")
        }
        func millis(_ at: UInt64) -> Double { (Double(at) - Double(handoffNanos)) / 1e6 }
        return Result(
            subscriptions: subscriptions, sent: arrived.count,
            residentPerSubscription: Double(residentAfter - residentBefore) / Double(subscriptions),
            residentPeakGrowth: peak,
            storePerSubscription: Double(storeAfter - storeBefore) / Double(subscriptions),
            firstMillis: millis(first), lastMillis: millis(last),
            perSecond: arrived.count > 1 ? Double(arrived.count - 1) / (Double(last - first) / 1e9) : 0,
            cpuMillisPerMessage: (cpuAfter - cpuBefore) / Double(arrived.count))
    }

    static func importing(_ admin: RosterConnection, _ format: Roster_V1_ImportFormat, _ text: String) async throws {
        guard
            case .mutationResult = try await admin.request(
                .importData(
                    .with {
                        $0.format = format; $0.data = Data(text.utf8)
                    }))
        else { throw BenchError("the \(format) import was refused") }
    }

    /// A person's connection, once the server has picked their new token up (within a second).
    static func connect(port: Int, token: String) async throws -> RosterConnection {
        for _ in 0..<50 {
            if let connection = try? await RosterConnection.connect(
                host: "127.0.0.1", port: port, hello: .with { $0.token = token })
            {
                return connection
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchError("the server did not accept a new token")
    }
}

/// Bytes of the files directly in `path` (the store and its write-ahead log).
func directoryBytes(_ path: String) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.reduce(0) { total, name in
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int) ?? 0
        return total + size
    }
}

/// Holds every thread `pid` has now to one core (threads made later inherit it), with
/// util-linux's taskset.
func pinThreads(pid: Int32, cpu: Int) throws {
    let taskset = Process()
    taskset.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
    taskset.arguments = ["--all-tasks", "--cpu-list", "--pid", "\(cpu)", "\(pid)"]
    taskset.standardOutput = FileHandle.nullDevice
    try taskset.run()
    taskset.waitUntilExit()
    guard taskset.terminationStatus == 0 else { throw BenchError("taskset could not pin \(pid) to core \(cpu)") }
}

/// A phase's end on standard error, with the time of day (a long setup shows where it goes).
private func progress(_ text: String) {
    FileHandle.standardError.write(Data("\(ISO8601DateFormatter().string(from: Date()))  \(text)\n".utf8))
}
