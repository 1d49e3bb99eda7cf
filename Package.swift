// swift-tools-version:6.1
import PackageDescription

// Our own targets build in Swift 6 language mode (the tools-version default) with strict
// concurrency checking; warnings in them are treated as bugs.
let package = Package(
    name: "Roster",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "RosterProtocol", targets: ["RosterProtocol"]),
        .library(name: "RosterDomain", targets: ["RosterDomain"]),
        .library(name: "RosterSystem", targets: ["RosterSystem"]),
        .library(name: "RosterStore", targets: ["RosterStore"]),
        .library(name: "RosterStoreSQLite", targets: ["RosterStoreSQLite"]),
        .library(name: "RosterServerCore", targets: ["RosterServerCore"]),
        .library(name: "RosterNotifications", targets: ["RosterNotifications"]),
        .library(name: "RosterHTTP", targets: ["RosterHTTP"]),
        .library(name: "RosterWeb", targets: ["RosterWeb"]),
        .library(name: "RosterServer", targets: ["RosterServer"]),
        .library(name: "RosterStorePostgres", targets: ["RosterStorePostgres"]),
        .library(name: "RosterClient", targets: ["RosterClient"]),
        .library(name: "RosterTLS", targets: ["RosterTLS"]),
        .library(name: "RosterViewModels", targets: ["RosterViewModels"]),
        // What roster-client shares (its TIME arguments among them), for the fuzz package.
        .library(name: "RosterCommandLine", targets: ["RosterCommandLine"]),
        .library(name: "RosterAsCode", targets: ["RosterAsCode"]),
        .executable(name: "roster-server", targets: ["roster-server"]),
        .executable(name: "roster-client", targets: ["roster-client"]),
        .executable(name: "roster-bench", targets: ["roster-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV.git", from: "0.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // gzip for the web app's pages (the system zlib; Debian: zlib1g-dev).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        // The system OpenSSL (Debian: libssl-dev), with a header shim for the macros Swift cannot import.
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // PostgreSQL's client library (Debian: libpq-dev), for the shared store. It brings no TLS
        // of its own: libpq uses the system OpenSSL.
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        // TLS over memory BIOs for SwiftNIO, certificates, and the hashing tokens need.
        .target(
            name: "RosterTLS",
            dependencies: ["COpenSSL", .product(name: "NIOCore", package: "swift-nio")],
            path: "Sources/TLS"
        ),
        // The shared model: records, validation, the on-duty engine, grouping and search,
        // import parsing. Pure Swift (Foundation only) so any app can embed it.
        .target(
            name: "RosterDomain",
            dependencies: [.product(name: "SwiftCSV", package: "SwiftCSV")],
            path: "Sources/Domain"
        ),
        // What touches the operating system below Foundation (Glibc): files written so that a
        // crash never tears them, per-user paths, descriptor and open-file limits. Kept out of
        // RosterDomain, which stays pure Swift.
        .target(
            name: "RosterSystem",
            path: "Sources/System"
        ),
        // The wire protocol: framing, generated protobuf bodies, typed messages, conversions.
        .target(
            name: "RosterProtocol",
            dependencies: [
                "RosterDomain",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Sources/Protocol"
        ),
        // The store, in FluentKit's shape: RosterStore is the protocol, its records, the data
        // directory and the store location; each database is a target of its own that builds on
        // it (RosterStoreSQLite below, RosterStorePostgres), and RosterStoreConformance (under
        // Tests/) is the suite every one of them passes. No server types in any.
        .target(
            name: "RosterStore",
            dependencies: [
                "RosterDomain", "RosterSystem", "RosterProtocol", "RosterTLS",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Sources/Store"
        ),
        // The embedded store (SQLite through GRDB), the default; its backups and restores.
        .target(
            name: "RosterStoreSQLite",
            dependencies: [
                "RosterStore", "RosterDomain", "RosterProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/StoreSQLite"
        ),
        // The core of the server: tenants, protocol connections, fan-out, admin changes, queries,
        // tokens and audit. It sees notifications and metrics only through narrow protocols, and
        // no database but the store protocol.
        .target(
            name: "RosterServerCore",
            dependencies: [
                "RosterDomain", "RosterSystem", "RosterProtocol", "RosterTLS", "RosterStore", "RosterIdentity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            path: "Sources/ServerCore",
            // The message catalogs' PO files: scripts/messages writes them into Generated/Catalogs.swift,
            // so they are built into the binary (nothing to install beside it).
            exclude: ["Locales"]
        ),
        // Webhooks and reminders: what a change or the passing time puts in the outbox, and the
        // dispatcher that delivers it.
        .target(
            name: "RosterNotifications",
            dependencies: [
                "RosterServerCore", "RosterDomain", "RosterProtocol", "RosterTLS", "RosterStore", "RosterIdentity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Notifications"
        ),
        // The HTTP listener: health, metrics (Prometheus), the JSON API and calendar feeds.
        .target(
            name: "RosterHTTP",
            dependencies: [
                "RosterServerCore", "RosterDomain", "RosterProtocol", "RosterTLS", "RosterStore", "RosterIdentity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Sources/HTTP"
        ),
        // The web app people open in a browser, served on the HTTP listener (docs/WEB.md):
        // server-rendered pages, no JavaScript toolchain.
        .target(
            name: "RosterWeb",
            dependencies: [
                "RosterServerCore", "RosterHTTP", "RosterDomain", "RosterProtocol", "RosterIdentity",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            path: "Sources/Web"
        ),
        // The service: settings, start and stop, the demo roster, and the wiring of the parts
        // above onto the default store.
        .target(
            name: "RosterServer",
            dependencies: [
                "RosterServerCore", "RosterNotifications", "RosterHTTP", "RosterWeb",
                "RosterDomain", "RosterProtocol", "RosterTLS", "RosterStore", "RosterStoreSQLite",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Sources/Server"
        ),
        // The PostgreSQL store that several nodes share, on libpq: a RosterStore like the SQLite
        // one, with no server types. Only the executables and the tests link it: the server
        // library, and what embeds or fuzzes it, build without it.
        .target(
            name: "RosterStorePostgres",
            dependencies: [
                "RosterStore", "RosterDomain", "RosterProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                "CLibPQ",
            ],
            path: "Sources/StorePostgres"
        ),
        .target(
            name: "RosterClient",
            dependencies: [
                "RosterDomain", "RosterSystem", "RosterProtocol", "RosterTLS",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Sources/Client"
        ),
        // Observable view models of the original apps' screens (Observation only, no UI
        // framework), and contacts matching from vCard files.
        .target(
            name: "RosterViewModels",
            dependencies: ["RosterClient", "RosterDomain"],
            path: "Sources/ViewModels"
        ),
        .executableTarget(
            name: "roster-server",
            dependencies: [
                "RosterServer", "RosterServerCore", "RosterStore", "RosterStoreSQLite", "RosterStorePostgres",
                "RosterProtocol", "RosterDomain",
                "RosterSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Sources/roster-server"
        ),
        // Schedules as code (docs/AS-CODE.md): definition files in YAML, read with their lines and
        // written by export. Its own target for the YAML parser it brings.
        .target(
            name: "RosterAsCode",
            dependencies: [
                "RosterDomain", "RosterProtocol",
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Sources/AsCode"
        ),
        // Sign-in with a company's identity provider (docs/SSO.md): ID tokens and the provider's
        // keys checked with the system OpenSSL (docs/ARCHITECTURE.md says why not a JOSE package).
        .target(
            name: "RosterIdentity",
            dependencies: [
                "RosterDomain", "RosterTLS", "COpenSSL",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Sources/Identity"
        ),
        // Migration from other on-call systems (docs/MIGRATING.md): their exports read into a
        // definition file, a report, and the proof against their own rendered lists.
        .target(
            name: "RosterMigration",
            dependencies: ["RosterDomain", "RosterProtocol", "RosterAsCode"],
            path: "Sources/Migration"
        ),
        // What the roster-client commands share: settings, time arguments, tables, JSON output
        // and the watch screen. The executable only declares commands.
        .target(
            name: "RosterCommandLine",
            dependencies: [
                "RosterClient", "RosterDomain", "RosterSystem", "RosterProtocol", "RosterTLS", "RosterViewModels",
                "RosterAsCode", "RosterMigration", "RosterIdentity",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Sources/CommandLine"
        ),
        .executableTarget(
            name: "roster-client",
            dependencies: [
                "RosterCommandLine", "RosterClient", "RosterDomain", "RosterProtocol", "RosterTLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/roster-client"
        ),
        // Load generators and the floor broadcaster behind roster-bench.
        .target(
            name: "RosterBench",
            dependencies: [
                "RosterProtocol", "RosterDomain", "RosterClient", "RosterTLS", "RosterServer", "RosterServerCore",
                "RosterStore", "RosterStoreSQLite", "RosterWeb", "RosterIdentity", "RosterNotifications",
                "RosterAsCode", "RosterMigration",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Sources/Bench"
        ),
        .executableTarget(
            name: "roster-bench",
            // roster-server is listed so that `swift run -c release roster-bench` builds the server
            // it starts, next to itself.
            dependencies: [
                "RosterBench", "RosterDomain", "RosterSystem", "roster-server",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/roster-bench"
        ),
        .testTarget(
            name: "RosterProtocolTests",
            dependencies: [
                "RosterProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/RosterProtocolTests",
            exclude: ["Vectors"]
        ),
        .testTarget(
            name: "RosterTLSTests",
            dependencies: [
                "RosterTLS", "RosterTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/RosterTLSTests"
        ),
        .testTarget(
            name: "RosterIdentityTests",
            dependencies: ["RosterIdentity", "RosterDomain", "RosterTestSupport"],
            path: "Tests/RosterIdentityTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RosterDomainTests",
            dependencies: [
                "RosterDomain", "RosterSystem",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/RosterDomainTests"
        ),
        // A real server on port 0, raw sockets, and the built executables, for the tests below.
        .target(
            name: "RosterTestSupport",
            dependencies: [
                "RosterServer", "RosterServerCore", "RosterStore", "RosterStoreSQLite", "RosterClient",
                "RosterProtocol", "RosterDomain", "RosterSystem", "RosterTLS",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/RosterTestSupport"
        ),
        // What every RosterStore must do, as checks a store's tests run (RosterServerTests runs
        // them on SQLite and PostgreSQL).
        .target(
            name: "RosterStoreConformance",
            dependencies: ["RosterStore", "RosterDomain", "RosterProtocol"],
            path: "Tests/RosterStoreConformance"
        ),
        .testTarget(
            name: "RosterServerTests",
            dependencies: [
                "RosterTestSupport", "RosterStoreConformance", "RosterServer", "RosterServerCore",
                "RosterNotifications", "RosterHTTP", "RosterWeb", "RosterStore", "RosterStoreSQLite",
                "RosterStorePostgres", "RosterClient", "RosterProtocol", "RosterDomain", "RosterSystem", "RosterTLS",
                "RosterAsCode",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/RosterServerTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RosterClientTests",
            dependencies: [
                "RosterTestSupport", "RosterServer", "RosterServerCore", "RosterStore", "RosterClient",
                "RosterCommandLine", "RosterProtocol", "RosterDomain",
                "RosterTLS",
            ],
            path: "Tests/RosterClientTests"
        ),
        .testTarget(
            name: "RosterViewModelTests",
            dependencies: [
                "RosterTestSupport", "RosterViewModels", "RosterClient", "RosterDomain", "RosterServer",
                "RosterServerCore",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/RosterViewModelTests"
        ),
        .testTarget(
            name: "RosterCLITests",
            dependencies: [
                "RosterTestSupport", "RosterNotifications", "RosterCommandLine", "RosterClient", "RosterDomain",
                "RosterTLS", "RosterAsCode",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "Tests/RosterCLITests",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RosterMigrationTests",
            dependencies: ["RosterMigration", "RosterDomain", "RosterAsCode"],
            path: "Tests/RosterMigrationTests",
            exclude: ["Fixtures"]
        ),
    ]
)
