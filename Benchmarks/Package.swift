// swift-tools-version:6.1
import PackageDescription

// A path dependency is identified by its directory's name, which is whatever the clone is called.
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "main"

// Micro-benchmarks, kept in their own package so the main build and CI never compile the
// benchmark harness. Run from this directory: swift package benchmark
let package = Package(
    name: "RosterBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "RosterMicro",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RosterProtocol", package: root),
                .product(name: "RosterDomain", package: root),
            ],
            path: "Benchmarks/RosterMicro",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
