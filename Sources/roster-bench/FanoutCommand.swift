import ArgumentParser
import Foundation
import RosterBench
import RosterDomain
import RosterSystem

struct Fanout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract:
            "N subscribers, M on-duty changes through admin operations; latency, completion, memory, and the floor.")
    @Option(help: "Subscriber connections.") var subscribers = 1000
    @Option(help: "On-duty changes to trigger.") var pushes = 10
    @Flag(help: "Also run the same fan-out over TLS and compare it with plaintext.") var tls = false
    @Option(help: "Also run with this many extra subscribers that stop reading, and compare the others' completion.")
    var stalled = 0
    @Option(
        help: """
            Also run with this many subscribers following a service whose policy pages the changed schedule \
            (as watch --service), beside the on-duty subscribers, and compare their pushes.
            """)
    var escalationSubscribers = 0
    @Flag(help: "Also run without the HTTP listener (no metrics counted) and compare.") var compareMetrics = false
    @Flag(help: "Also run with the web app's event streams (GET /v1/events) as the subscribers, and compare.")
    var eventStreams = false
    @Option(
        help: "Seconds the synced subscribers stay idle before the server's memory is read again (60: an idle minute).")
    var idle: Double = 1
    @Option(
        help: """
            A PostgreSQL server to run on as well (postgres://USER@HOST:PORT/DATABASE; each run makes \
            and drops a database of its own there): compares one node on SQLite, one on PostgreSQL and --nodes.
            """)
    var postgres: String?
    @Option(help: "Nodes on PostgreSQL, subscribers spread over them, changes through the first (needs --postgres).")
    var nodes = 1
    @Option(
        help: ArgumentHelp(
            """
            Count instructions instead: run the server and the floor under this valgrind's callgrind \
            (3.24 or later) and print the user-space instructions of the fan-out loop per subscriber per push.
            """, valueName: "valgrind"))
    var callgrind: String?

    func validate() throws {
        guard nodes >= 1 else { throw ValidationError("--nodes is at least 1") }
        if let callgrind, executablePath(callgrind) == nil {
            throw ValidationError(
                "--callgrind \(callgrind): no such executable (valgrind 3.24 or later; docs/BENCHMARKS.md says how to build one)"
            )
        }
        if callgrind != nil && (postgres != nil || tls || stalled > 0 || compareMetrics) {
            throw ValidationError(
                "--callgrind counts one plaintext node on SQLite: leave out --postgres, --tls, --stalled and --compare-metrics"
            )
        }
        if escalationSubscribers > 0 && (postgres != nil || callgrind != nil) {
            throw ValidationError(
                "--escalation-subscribers runs one node on SQLite: leave out --postgres and --callgrind")
        }
        if eventStreams && (postgres != nil || callgrind != nil) {
            throw ValidationError("--event-streams runs one node on SQLite: leave out --postgres and --callgrind")
        }
        if nodes > 1 && postgres == nil {
            throw ValidationError(
                "--nodes \(nodes) needs --postgres postgres://USER@HOST:PORT/DATABASE: nodes share a PostgreSQL store")
        }
    }

    func run() async throws {
        ProcessLimits.raiseOpenFileLimit()
        var benchmark = FanoutBenchmark(
            subscribers: subscribers, pushes: pushes,
            serverExecutable: siblingExecutable("roster-server"),
            benchExecutable: siblingExecutable("roster-bench"))
        benchmark.idleSeconds = idle
        if let callgrind {
            benchmark.valgrind = executablePath(callgrind)
            let server = try await benchmark.runServer()
            let floor = try await benchmark.runFloor(pushFrame: server.pushFrame ?? [])
            let ours = server.instructionsPerSubscriberPush ?? 0, floors = floor.instructionsPerSubscriberPush ?? 0
            print(
                "fanout under callgrind: \(subscribers) subscribers, \(pushes) pushes of \(server.frameBytes)-byte frames (plaintext)"
            )
            print(
                String(
                    format:
                        "  user-space instructions per subscriber per push: roster-server %.0f (LoopFanout.fanOut), floor %.0f (its write loop)",
                    ours, floors))
            print(
                String(
                    format:
                        "  beyond the floor's: %.0f per subscriber per push; the kernel's share (the write itself) is not counted",
                    ours - floors))
            print(
                "  profiles: callgrind_annotate --inclusive=yes \(server.callgrindOutput ?? "")   (floor: \(floor.callgrindOutput ?? ""))"
            )
            return
        }
        if let postgres {
            try await compareStores(benchmark, postgres: postgres)
            return
        }
        let server = try await benchmark.runServer()
        let floor = try await benchmark.runFloor(pushFrame: server.pushFrame ?? [])
        let secure = tls ? try await benchmark.runServer(tls: true) : nil
        var withStalled = benchmark
        withStalled.stalledSubscribers = stalled
        let slowed = stalled > 0 ? try await withStalled.runServer() : nil
        var withEscalation = benchmark
        withEscalation.escalationSubscribers = escalationSubscribers
        let escalated = escalationSubscribers > 0 ? try await withEscalation.runServer() : nil
        print("fanout: \(subscribers) subscribers, \(pushes) pushes of \(server.frameBytes)-byte frames (plaintext)")
        print("  roster-server  latency \(server.latency)")
        print(
            String(
                format:
                    "                 completion %.2f ms (median over pushes)   admin round trip p50 %.2f ms  p99 %.2f ms",
                server.completionMillis, server.triggerMillis, server.triggerP99Millis))
        if let perSubscriber = server.residentBytesPerSubscriber {
            print(
                String(format: "                 resident memory per idle subscriber %.0f bytes", perSubscriber)
                    + (server.residentBytesPerSubscriberAfterIdle.map {
                        String(format: " after 1 s, %.0f bytes after %.0f s", $0, idle)
                    } ?? ""))
        }
        print(
            String(
                format: "                 server CPU %.1f ms per push, %.3f ms per connect",
                server.cpuMillisPerPush, server.cpuMillisPerConnect))
        print("  floor          latency \(floor.latency)")
        // The floor also answers its trigger before its write loop: the same round trip under
        // the same load on the bench's side, for comparison with roster-server's.
        print(
            String(
                format: "                 completion %.2f ms   trigger round trip p50 %.2f ms  p99 %.2f ms",
                floor.completionMillis, floor.triggerMillis, floor.triggerP99Millis))
        print(
            String(
                format: "                 server CPU %.1f ms per push, %.3f ms per connect",
                floor.cpuMillisPerPush, floor.cpuMillisPerConnect))
        print(String(format: "  ratio to floor: CPU per push %.2f×", server.cpuMillisPerPush / floor.cpuMillisPerPush))
        print(
            String(
                format: "  ratio to floor: completion %.2f×, p50 %.2f×, p99 %.2f×",
                server.completionMillis / floor.completionMillis, server.latency.p50 / floor.latency.p50,
                server.latency.p99 / floor.latency.p99))
        if let escalated, let escalation = escalated.escalation {
            print(
                "  with \(escalationSubscribers) service subscribers beside them (one run; each change is both pushes):"
            )
            print("    on-duty     latency \(escalated.latency)")
            print(String(format: "                completion %.2f ms", escalated.completionMillis))
            print("    escalation  latency \(escalation.latency)   (\(escalation.frameBytes)-byte frames)")
            print(
                String(
                    format: "                completion %.2f ms   server CPU %.1f ms per change (both pushes)",
                    escalation.completionMillis, escalated.cpuMillisPerPush))
        }
        if let slowed {
            print("  with \(stalled) stalled subscribers  latency \(slowed.latency)")
            print(
                String(
                    format: "                 completion %.2f ms; ratio to the run without them %.2f×",
                    slowed.completionMillis, slowed.completionMillis / server.completionMillis))
        }
        if compareMetrics {
            var unmetered = benchmark
            unmetered.metrics = false
            let plain = try await unmetered.runServer()
            print("  without metrics  latency \(plain.latency)")
            print(
                String(
                    format: "                 completion %.2f ms; server CPU %.1f ms per push", plain.completionMillis,
                    plain.cpuMillisPerPush))
            print(
                String(
                    format: "  ratio metrics on to off: CPU per push %.2f×, completion %.2f×, p50 %.2f×",
                    server.cpuMillisPerPush / plain.cpuMillisPerPush, server.completionMillis / plain.completionMillis,
                    server.latency.p50 / plain.latency.p50))
        }
        if eventStreams {
            // Like for like: protocol subscribers that follow the roster too, as a stream does.
            var watching = benchmark
            watching.subscribersFollowRoster = true
            let watchers = try await watching.runServer()
            print("  subscribers following the roster too (as roster-client watch)  latency \(watchers.latency)")
            print(
                String(
                    format: "                 completion %.2f ms (median over pushes); server CPU %.1f ms per push",
                    watchers.completionMillis, watchers.cpuMillisPerPush))
            var web = benchmark
            web.eventStreams = true
            let streams = try await web.runServer()
            print("  event streams  latency \(streams.latency)")
            print(String(format: "                 completion %.2f ms (median over pushes)", streams.completionMillis))
            if let perStream = streams.residentBytesPerSubscriber {
                print(
                    String(format: "                 resident memory per idle stream %.0f bytes", perStream)
                        + (streams.residentBytesPerSubscriberAfterIdle.map {
                            String(format: " after 1 s, %.0f bytes after %.0f s", $0, idle)
                        } ?? ""))
            }
            print(
                String(
                    format: "                 server CPU %.1f ms per push, %.3f ms per connect",
                    streams.cpuMillisPerPush, streams.cpuMillisPerConnect))
            print(
                String(
                    format:
                        "  ratio event streams to subscribers following the roster too: completion %.2f×, CPU per push %.2f×, p50 %.2f×, p99 %.2f×",
                    streams.completionMillis / watchers.completionMillis,
                    streams.cpuMillisPerPush / watchers.cpuMillisPerPush,
                    streams.latency.p50 / watchers.latency.p50, streams.latency.p99 / watchers.latency.p99))
            print(
                String(
                    format:
                        "  ratio event streams to on-duty-only subscribers (one frame a push, not two): completion %.2f×, CPU per push %.2f×",
                    streams.completionMillis / server.completionMillis,
                    streams.cpuMillisPerPush / server.cpuMillisPerPush))
        }
        if let secure {
            print("  roster-server over TLS (TLS 1.3)  latency \(secure.latency)")
            print(String(format: "                 completion %.2f ms (median over pushes)", secure.completionMillis))
            if let perSubscriber = secure.residentBytesPerSubscriber {
                print(
                    String(format: "                 resident memory per idle TLS subscriber %.0f bytes", perSubscriber)
                        + (secure.residentBytesPerSubscriberAfterIdle.map {
                            String(format: " after 1 s, %.0f bytes after %.0f s", $0, idle)
                        } ?? ""))
            }
            print(
                String(
                    format: "  ratio TLS to plaintext: completion %.2f×, p50 %.2f×, p99 %.2f×",
                    secure.completionMillis / server.completionMillis, secure.latency.p50 / server.latency.p50,
                    secure.latency.p99 / server.latency.p99))
        }
    }
}

extension Fanout {
    /// One node on SQLite, one on PostgreSQL, and `nodes` on PostgreSQL, with the same
    /// subscribers in all: what the shared store costs the admin, and what a node that learns
    /// of a change from the store's announcement adds to the fan-out.
    func compareStores(_ benchmark: FanoutBenchmark, postgres: String) async throws {
        let sqlite = try await benchmark.runServer()
        var onPostgres = benchmark
        onPostgres.postgres = postgres
        let single = try await onPostgres.runServer()
        var spread = onPostgres
        spread.nodes = nodes
        let several = nodes > 1 ? try await spread.runServer() : nil
        print("fanout: \(subscribers) subscribers, \(pushes) pushes of \(sqlite.frameBytes)-byte frames (plaintext)")
        for (name, result) in [("1 node, SQLite", sqlite), ("1 node, PostgreSQL", single)]
            + (several.map { [("\(nodes) nodes, PostgreSQL", $0)] } ?? [])
        {
            print("  \(name)  latency \(result.latency)")
            print(
                String(format: "      completion %.2f ms (median over pushes)", result.completionMillis)
                    + (result.otherNodesCompletionMillis.map {
                        String(format: ", on the nodes the change was not made through %.2f ms", $0)
                    } ?? ""))
            print(
                String(
                    format: "      admin change acknowledged p50 %.2f ms  p99 %.2f ms", result.triggerMillis,
                    result.triggerP99Millis))
            print(String(format: "      server CPU %.1f ms per push (all nodes)", result.cpuMillisPerPush))
        }
        print(
            String(
                format: "  PostgreSQL to SQLite: acknowledgement p50 %.2f×, p99 %.2f×",
                single.triggerMillis / sqlite.triggerMillis, single.triggerP99Millis / sqlite.triggerP99Millis)
                + (subscribers > 0
                    ? String(format: "; completion %.2f×", single.completionMillis / sqlite.completionMillis) : ""))
        if let several, subscribers > 0 {
            let others = several.otherNodesCompletionMillis ?? several.completionMillis
            print(
                String(
                    format: "  %d nodes to 1 (PostgreSQL): completion on the other nodes %.2f×, overall %.2f×",
                    nodes, others / single.completionMillis, several.completionMillis / single.completionMillis))
            print(
                String(
                    format: "  %d nodes to 1 (SQLite): completion on the other nodes %.2f×, overall %.2f×",
                    nodes, others / sqlite.completionMillis, several.completionMillis / sqlite.completionMillis))
        }
    }
}
