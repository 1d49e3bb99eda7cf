import Foundation
import RosterClient
import RosterDomain
import RosterProtocol
import RosterServer
import RosterServerCore
import RosterTestSupport
import Testing

/// The bad-input catalogue (docs/RELIABILITY.md): malformed frames, bodies, field values and
/// import files, each with the error it must get; after every one, a healthy client is still
/// served. CLI arguments and cache files follow in their own suites.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BadInputCatalogueTests {
    static func frame(_ type: UInt8, flags: UInt8 = 0, requestID: UInt32 = 1, body: [UInt8] = []) -> [UInt8] {
        var bytes = withUnsafeBytes(of: UInt32(6 + body.count).bigEndian, Array.init)
        bytes += [type, flags]
        bytes += withUnsafeBytes(of: requestID.bigEndian, Array.init)
        return bytes + body
    }

    static func encoded(_ message: RosterMessage, requestID: UInt32 = 1) -> [UInt8] {
        Array(message.frame(requestID: requestID).encoded().readableBytesView)
    }

    static func hello(_ configure: (inout Roster_V1_Hello) -> Void) -> [UInt8] {
        var hello = Roster_V1_Hello.with {
            $0.minVersion = 1; $0.maxVersion = 1
        }
        configure(&hello)
        return encoded(.hello(hello))
    }

    static let helloOK = encoded(validHello)

    /// Bytes on a fresh connection, and the error that closes it.
    static let closingCases: [(String, [UInt8], Roster_V1_ErrorCode)] = [
        ("16 bytes of 0xFF", [UInt8](repeating: 0xFF, count: 16), .frameTooLarge),
        ("length 0", [0, 0, 0, 0], .malformedFrame),
        ("length 5, shorter than a header", [0, 0, 0, 5, 1, 0, 0, 0, 0], .malformedFrame),
        (
            "a 5,000-byte frame before Hello (limit 4 KiB)", [0, 0, 0x13, 0x88] + [UInt8](repeating: 0, count: 64),
            .frameTooLarge
        ),
        ("an HTTP request", Array("GET / HTTP/1.1\r\nHost: roster\r\n\r\n".utf8), .frameTooLarge),
        (
            "a TLS ClientHello on a plaintext port",
            [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03],
            .frameTooLarge
        ),
        ("Ping before Hello", encoded(.ping(.init())), .protocolViolation),
        ("a query before Hello", encoded(.getOnDuty(.init())), .protocolViolation),
        ("an unknown type 0x7F before Hello", frame(0x7F), .unknownMessageType),
        ("a Hello whose body is not protobuf", frame(0x01, body: [0xFF, 0xFF, 0xFF]), .malformedFrame),
        (
            "Hello with min > max",
            hello {
                $0.minVersion = 2; $0.maxVersion = 1
            }, .unsupportedVersion
        ),
        (
            "Hello with versions 0...0",
            hello {
                $0.minVersion = 0; $0.maxVersion = 0
            }, .unsupportedVersion
        ),
        (
            "Hello with versions 5...9",
            hello {
                $0.minVersion = 5; $0.maxVersion = 9
            }, .unsupportedVersion
        ),
        ("Hello with a malformed token", hello { $0.token = "let me in" }, .unauthenticated),
        (
            "Hello with a well-formed unknown token",
            hello { $0.token = "rst_000000000000_" + String(repeating: "ab", count: 32) },
            .unauthenticated
        ),
        ("Hello for an unknown tenant", hello { $0.tenant = "nosuch" }, .unauthenticated),
        ("a second Hello", helloOK + helloOK, .protocolViolation),
        ("Welcome sent by a client", helloOK + encoded(.welcome(.init())), .protocolViolation),
        ("a 2 MiB frame after Hello (limit 1 MiB)", helloOK + [0, 0x20, 0, 0, 0x10, 0, 0, 0, 0, 1], .frameTooLarge),
        ("GetEmployee with a garbage body", helloOK + frame(0x15, body: [0x0A, 0xFF]), .malformedFrame),
        ("Subscribe with a garbage body", helloOK + frame(0x20, body: [0x12, 0x05, 0x01]), .malformedFrame),
        ("Import with a truncated body", helloOK + frame(0x35, body: [0x12, 0x40, 0x41]), .malformedFrame),
        ("an unknown type 0x7E after Hello", helloOK + frame(0x7E), .unknownMessageType),
        ("a MutationResult sent by a client", helloOK + encoded(.mutationResult(.init())), .protocolViolation),
    ]

    @Test func framesAndBodiesThatCloseTheConnection() async throws {
        try await using(try await ServerHarness.start { $0.limits.authFailureDelay = .milliseconds(10) }) { harness in
            for (name, bytes, code) in Self.closingCases {
                let socket = try RawSocket(port: harness.port)
                socket.send(bytes)
                let (frames, closed) = await socket.readUntilClosed()
                #expect(
                    frames.last?.errorCode == code,
                    "\(name): got \(frames.map(\.type)) \(frames.last?.errorCode.map { "\($0)" } ?? "")")
                #expect(closed, "\(name): the connection is closed")
                try await Self.expectHealthy(harness, after: name)
            }
        }
    }

    static func expectHealthy(_ harness: ServerHarness, after name: String) async throws {
        let client = try await harness.connect(token: "")
        guard case .onDuty = try await client.request(.getOnDuty(.init())) else {
            Issue.record("after \(name), the server stopped answering")
            return
        }
        await client.close()
    }

    static func refusal(_ attempt: () async throws -> Void) async -> Roster_V1_Error? {
        do {
            try await attempt()
        } catch RosterClientError.server(let error) {
            return error
        } catch {
            Issue.record("expected an Error frame, got \(error)")
        }
        return nil
    }

    static let csvHeader = "first_name,last_name,email,phone,position,team,projects,biography,photo_url\n"

    /// Requests answered with an error on a connection that stays open.
    static let requestCases: [(String, Bool, RosterMessage, Roster_V1_ErrorCode, String?)] = [
        // (name, needs admin, request, code, a violation field or a word of the message)
        ("Subscribe with no topic", false, .subscribe(.init()), .invalidArgument, nil),
        (
            "Unsubscribe from an unknown subscription", false, .unsubscribe(.with { $0.subscriptionID = 99 }),
            .notFound, nil
        ),
        ("GetEmployee for nobody", false, .getEmployee(.with { $0.idOrName = "Nobody At All" }), .notFound, nil),
        (
            "Subscribe from a future revision", false,
            .subscribe(
                .with {
                    $0.topics = [.roster]; $0.sinceRevision = 1_000; $0.epoch = 1
                }), .resyncRequired, nil
        ),
        ("a reader changing the plan", false, .setMotd(.with { $0.motd = "no" }), .permissionDenied, nil),
        (
            "an employee without a first name", true,
            .upsertEmployee(.with { $0.employee = .with { $0.lastName = "X" } }),
            .invalidArgument, "first_name"
        ),
        (
            "an employee without a last name", true,
            .upsertEmployee(.with { $0.employee = .with { $0.firstName = "X" } }),
            .invalidArgument, "last_name"
        ),
        (
            "an implausible email", true,
            .upsertEmployee(
                .with {
                    $0.employee = .with {
                        $0.firstName = "A"; $0.lastName = "B"; $0.email = "not an email"
                    }
                }),
            .invalidArgument, "email"
        ),
        (
            "a name already taken", true,
            .upsertEmployee(
                .with {
                    $0.employee = .with {
                        $0.firstName = "Ada"; $0.lastName = "Lovelace"
                    }
                }), .invalidArgument, "name"
        ),
        (
            "a shift that ends before it starts", true,
            .addShift(
                .with {
                    $0.shift = .with {
                        $0.employeeID = "Ada Lovelace"; $0.startMs = t0 + 10; $0.endMs = t0
                    }
                }),
            .invalidArgument, "end"
        ),
        (
            "a shift for an unknown employee", true,
            .addShift(
                .with {
                    $0.shift = .with {
                        $0.employeeID = "Nobody"; $0.startMs = t0; $0.endMs = t0 + 10
                    }
                }),
            .invalidArgument, "employee_id"
        ),
        (
            "a message of the day over 4096 characters", true,
            .setMotd(.with { $0.motd = String(repeating: "x", count: 4097) }),
            .invalidArgument, "motd"
        ),
        ("deleting an unknown shift", true, .deleteShift(.with { $0.id = "nosuch" }), .notFound, nil),
        ("deleting an unknown employee", true, .deleteEmployee(.with { $0.id = "Nobody At All" }), .notFound, nil),
        ("an import with no format", true, .importData(.with { $0.data = Data("x".utf8) }), .invalidArgument, nil),
        (
            "an employees CSV without a header", true,
            .importData(
                .with {
                    $0.format = .employeesCsv; $0.data = Data("Ada,Lovelace\n".utf8)
                }), .invalidArgument, nil
        ),
        (
            "an employees CSV row without a last name", true,
            .importData(
                .with {
                    $0.format = .employeesCsv; $0.data = Data((csvHeader + "Grace,,,,,,,,\n").utf8)
                }),
            .invalidArgument, "last_name"
        ),
        (
            "an employees CSV with a bad email on line 3", true,
            .importData(
                .with {
                    $0.format = .employeesCsv
                    $0.data = Data((csvHeader + "Grace,Hopper,,,,,,,\nAlan,Turing,@@,,,,,,\n").utf8)
                }), .invalidArgument, "email"
        ),
        (
            "a shifts CSV with an unreadable time", true,
            .importData(
                .with {
                    $0.format = .shiftsCsv; $0.data = Data("employee,start,end\nAda Lovelace,yesterday,today\n".utf8)
                }),
            .invalidArgument, nil
        ),
        (
            "a snapshot that is not JSON", true,
            .importData(
                .with {
                    $0.format = .snapshotJson; $0.data = Data("{not json".utf8)
                }), .invalidArgument, nil
        ),
        (
            "a snapshot JSON of the wrong shape", true,
            .importData(
                .with {
                    $0.format = .snapshotJson; $0.data = Data("[1, 2, 3]".utf8)
                }), .invalidArgument, nil
        ),
        (
            "a legacy app JSON of the wrong shape", true,
            .importData(
                .with {
                    $0.format = .legacyAppJson; $0.data = Data("{\"employees\": 7}".utf8)
                }), .invalidArgument, nil
        ),
        (
            "an import that is not UTF-8", true,
            .importData(
                .with {
                    $0.format = .employeesCsv; $0.data = Data([0xFF, 0xFE, 0x00, 0xC3])
                }), .invalidArgument, nil
        ),
    ]

    @Test func requestsAndFieldValuesAnsweredWithAnError() async throws {
        try await using(try await ServerHarness.start()) { harness in
            let admin = try await harness.connect()
            _ = try await admin.addEmployee("Ada", "Lovelace")
            let reader = try await harness.connect(token: "")
            for (name, asAdmin, request, code, detail) in Self.requestCases {
                let connection = asAdmin ? admin : reader
                let error = await Self.refusal { _ = try await connection.request(request) }
                #expect(error?.code == code, "\(name): got \(String(describing: error?.code)) \(error?.message ?? "")")
                if let detail, let error {
                    let mentioned = error.violations.contains { $0.field == detail } || error.message.contains(detail)
                    #expect(mentioned, "\(name): the error names \(detail): \(error.violations) \(error.message)")
                }
                #expect(connection.isActive, "\(name): the connection stays open")
                try await Self.expectHealthy(harness, after: name)
            }
            // Nothing refused was applied.
            let snapshot = try await reader.request(.getSnapshot(.init())).snapshotBody()
            #expect(
                snapshot.employees.map(\.lastName) == ["Lovelace"] && snapshot.shifts.isEmpty
                    && snapshot.tenant.motd.isEmpty)
            #expect(snapshot.revision == 1)

            // An unknown type marked ignorable is dropped without an answer; the connection goes on.
            let socket = try RawSocket(port: harness.port)
            socket.send(
                Self.helloOK + Self.frame(0x7D, flags: 0x01, body: [1, 2, 3])
                    + Self.encoded(.ping(.with { $0.nonce = 7 }), requestID: 9))
            let answers = await socket.readFrames(quiet: 0.5).frames
            #expect(answers.map(\.type) == [.welcome, .pong], "the ignorable frame got no answer, the Ping its Pong")
            await admin.close()
            await reader.close()
        }
    }
}
