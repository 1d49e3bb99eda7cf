import Benchmark
import NIOCore
import RosterDomain
import RosterProtocol

// Micro-benchmarks of the pieces on every push and query: framing a push, decoding frames, and
// the on-duty lookup on a plan of 1,000,000 shifts.

let person = Roster_V1_OnDutyPerson.with {
    $0.employee = .with {
        $0.id = "e_1"; $0.firstName = "Ann"; $0.lastName = "Lee"
    }
    $0.shift = .with {
        $0.id = "s_1"; $0.employeeID = "e_1"; $0.startMs = 1_767_225_600_000; $0.endMs = 1_767_229_200_000
    }
}
let push = RosterMessage.onDutyChanged(
    .with {
        $0.epoch = 42; $0.revision = 7; $0.atMs = 1_767_225_600_000; $0.previous = [person]; $0.current = [person]
        $0.untilMs = 1_767_229_200_000; $0.next = [person]; $0.cause = .boundary; $0.sequence = 3
    })
let encodedPush = push.frame().encoded()

/// 1,000,000 one-hour shifts of 1,000 people, back to back with some overlap.
let plan: (engine: OnDutyEngine, span: ClosedRange<Int64>) = {
    let hour: Int64 = 3_600_000
    let shifts = (0..<1_000_000).map { index in
        Shift(
            id: "s\(index)", employeeID: "e\(index % 1_000)", start: Int64(index) * hour / 2,
            end: Int64(index) * hour / 2 + hour)
    }
    return (OnDutyEngine(shifts: shifts), 0...(Int64(1_000_000) * hour / 2))
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(2))

    Benchmark("Frame: encode an OnDutyChanged push", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(push.frame().encoded())
        }
    }

    Benchmark("Frame: decode header and body", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            var buffer = encodedPush
            var decoder = FrameDecoder(maxFrameLength: 1 << 20)
            if let frame = try? decoder.decodeFrame(from: &buffer) { blackHole(try? RosterMessage.decode(frame)) }
        }
    }

    Benchmark("Frame: split only (no body decode)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            var buffer = encodedPush
            var decoder = FrameDecoder(maxFrameLength: 1 << 20)
            blackHole(try? decoder.decodeFrame(from: &buffer))
        }
    }

    Benchmark("On-duty lookup, 1,000,000 shifts", configuration: .init(scalingFactor: .kilo, setup: { _ = plan })) {
        benchmark in
        var generator = SystemRandomNumberGenerator()
        for _ in benchmark.scaledIterations {
            blackHole(plan.engine.lookup(at: Int64.random(in: plan.span, using: &generator)))
        }
    }
}
