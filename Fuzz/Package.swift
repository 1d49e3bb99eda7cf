// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets, in their own package: they are built with -sanitize=fuzzer,address, which
// the main build must not use. scripts/fuzz builds and runs them.
let root = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "main"

let package = Package(
    name: "RosterFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
        .executableTarget(
            name: "FuzzFrames",
            dependencies: [
                "FuzzDriver", .product(name: "RosterProtocol", package: root),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/FuzzFrames"
        ),
        .executableTarget(
            name: "FuzzMessages",
            dependencies: [
                "FuzzDriver", .product(name: "RosterProtocol", package: root),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Sources/FuzzMessages"
        ),
        .executableTarget(
            name: "FuzzRequests",
            dependencies: [
                "FuzzDriver", .product(name: "RosterProtocol", package: root),
                .product(name: "RosterServerCore", package: root),
                .product(name: "RosterStore", package: root), .product(name: "RosterStoreSQLite", package: root),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/FuzzRequests"
        ),
        .executableTarget(
            name: "FuzzHTTP",
            dependencies: [
                "FuzzDriver", .product(name: "RosterHTTP", package: root),
                .product(name: "RosterServerCore", package: root),
                .product(name: "RosterWeb", package: root),
                .product(name: "RosterStore", package: root), .product(name: "RosterStoreSQLite", package: root),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/FuzzHTTP"
        ),
        .executableTarget(
            name: "FuzzParsers",
            dependencies: [
                "FuzzDriver", .product(name: "RosterDomain", package: root),
                .product(name: "RosterServer", package: root),
                .product(name: "RosterServerCore", package: root), .product(name: "RosterStore", package: root),
                .product(name: "RosterCommandLine", package: root), .product(name: "RosterAsCode", package: root),
            ],
            path: "Sources/FuzzParsers"
        ),
        .executableTarget(
            name: "FuzzImports",
            dependencies: [
                "FuzzDriver", .product(name: "RosterDomain", package: root),
                .product(name: "RosterProtocol", package: root),
                .product(name: "RosterServerCore", package: root), .product(name: "RosterStore", package: root),
                .product(name: "RosterStoreSQLite", package: root), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/FuzzImports"
        ),
        .executableTarget(
            name: "FuzzConnection",
            dependencies: [
                "FuzzDriver", .product(name: "RosterProtocol", package: root),
                .product(name: "RosterServerCore", package: root),
                .product(name: "RosterStore", package: root), .product(name: "RosterStoreSQLite", package: root),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/FuzzConnection"
        ),
    ]
)
