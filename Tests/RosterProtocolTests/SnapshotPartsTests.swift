import PropertyBased
import RosterProtocol
import Testing

/// Splitting a snapshot by the frame limit and assembling the parts gives the snapshot back, with
/// every frame within the limit.
@Suite(.timeLimit(.minutes(10))) struct SnapshotPartsTests {
    static func snapshot(employees: Int, shifts: Int, nameLength: Int) -> Roster_V1_Snapshot {
        .with {
            $0.epoch = 9
            $0.revision = 77
            $0.tenant = .with {
                $0.id = "t"; $0.name = "Tenant"; $0.motd = "hello"
            }
            $0.employees = (0..<employees).map { index in
                .with {
                    $0.id = "e\(index)"; $0.firstName = String(repeating: "a", count: nameLength);
                    $0.lastName = "L\(index)"
                }
            }
            $0.shifts = (0..<shifts).map { index in
                .with {
                    $0.id = "s\(index)"; $0.employeeID = "e\(index % max(employees, 1))"; $0.startMs = Int64(index);
                    $0.endMs = Int64(index + 1)
                }
            }
            $0.schedules = [
                .with {
                    $0.id = "default"; $0.name = "Default"
                }
            ]
            // Every later kind of record too, in numbers the sizes above vary.
            $0.holidays = (0..<(employees % 5)).map { index in
                .with {
                    $0.name = "h\(index)"; $0.days = ["2026-12-25"]
                }
            }
            $0.escalationPolicies = (0..<(shifts % 37)).map { index in
                .with {
                    $0.id = "p\(index)"; $0.name = String(repeating: "p", count: nameLength)
                    $0.steps = [
                        .with {
                            $0.delayMinutes = 5; $0.targets = [.with { $0.scheduleID = "default" }]
                        }
                    ]
                }
            }
            $0.services = (0..<(employees % 23)).map { index in
                .with {
                    $0.id = "s\(index)"; $0.name = "Service \(index)"; $0.policyID = "p0"
                }
            }
        }
    }

    @Test func partsFitTheLimitAndMergeBackToTheSnapshot() async {
        let gen = zip(Gen.int(in: 0...300), Gen.int(in: 0...600), Gen.int(in: 1...200), Gen.int(in: 300...6000))
        await propertyCheck(count: 200, input: gen) { employees, shifts, nameLength, limit in
            let whole = Self.snapshot(employees: employees, shifts: shifts, nameLength: nameLength)
            let frames = SnapshotParts.frames(whole, requestID: 3, maxFrameBytes: limit)
            let fits = RosterMessage.snapshot(whole).frame().encoded().readableBytes - 4 <= limit
            #expect(fits == (frames.count == 1))
            var assembly = SnapshotAssembly()
            var assembled: [Roster_V1_Snapshot] = []
            for (index, frame) in frames.enumerated() {
                #expect(frame.encoded().readableBytes - 4 <= limit, "frame \(index) of \(frames.count)")
                #expect(frame.requestID == 3)
                guard case .snapshot(let part) = try RosterMessage.decode(frame) else {
                    Issue.record("not a Snapshot")
                    return
                }
                if let done = assembly.add(part, requestID: frame.requestID) { assembled.append(done) }
            }
            #expect(assembled == [whole])
        }
    }

    @Test func partsOfTwoRequestsAssembleApart() throws {
        let a = Self.snapshot(employees: 40, shifts: 40, nameLength: 50),
            b = Self.snapshot(employees: 10, shifts: 90, nameLength: 5)
        let framesA = SnapshotParts.frames(a, requestID: 1, maxFrameBytes: 1024)
        let framesB = SnapshotParts.frames(b, requestID: 2, maxFrameBytes: 1024)
        #expect(framesA.count > 1 && framesB.count > 1)
        var assembly = SnapshotAssembly()
        var done: [UInt32: Roster_V1_Snapshot] = [:]
        for index in 0..<max(framesA.count, framesB.count) {
            for frame in [framesA, framesB].compactMap({ index < $0.count ? $0[index] : nil }) {
                guard case .snapshot(let part) = try RosterMessage.decode(frame) else { throw SnapshotTestFailure() }
                if let whole = assembly.add(part, requestID: frame.requestID) { done[frame.requestID] = whole }
            }
        }
        #expect(done[1] == a && done[2] == b)
    }
}

struct SnapshotTestFailure: Error {}
