// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "sdl-gateway",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sdl-gateway", targets: ["SDLGatewayCommand"]),
        .executable(name: "sdl-spec-gen", targets: ["SDLSpecGenerator"]),
        .executable(name: "sdl-gateway-bench", targets: ["SDLGatewayBench"]),
        .executable(name: "sdl-gateway-reliability", targets: ["SDLGatewayReliability"]),
        .library(name: "SDLProtocol", targets: ["SDLProtocol"]),
        .library(name: "SDLSpec", targets: ["SDLSpec"]),
        .library(name: "HeadUnitModel", targets: ["HeadUnitModel"]),
        .library(name: "HeadUnitSimulator", targets: ["HeadUnitSimulator"]),
        .library(name: "SDLTransport", targets: ["SDLTransport"]),
        .library(name: "SDLTime", targets: ["SDLTime"]),
        .library(name: "SDLClient", targets: ["SDLClient"]),
        .library(name: "SDLManagers", targets: ["SDLManagers"]),
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "HeadlessHMI", targets: ["HeadlessHMI"]),
        .library(name: "SDLConformance", targets: ["SDLConformance"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // No traits, as hummingbird-websocket asks: with Hummingbird's default traits here and
        // none there, `swift build`, `swift run` and `swift test` settled them differently and each
        // rebuilt Hummingbird after the other. Nothing here uses what they add (swift-configuration's
        // ConfigReader, full Foundation's URL-encoded dates).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.5.0", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // Bytes <-> frames, messages, BSON, control frames and RPCs. NIOCore only: no I/O.
        .target(
            name: "SDLProtocol",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio")
            ],
            swiftSettings: swiftSettings
        ),
        // The RPC catalog of MOBILE_API.xml, its loader and JSON parameter validation.
        .target(
            name: "SDLSpec",
            dependencies: [
                "SDLProtocol"
            ],
            swiftSettings: swiftSettings
        ),
        // The byte channel to a head unit: tcp, ws and wss (SDL Core's WebSocket server for apps).
        .target(
            name: "SDLTransport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The injected clock every driver runs on (as hummingbird's and the connection pool's): SDLClock, its system and
        // manual clocks, and sleeping on it.
        .target(
            name: "SDLTime",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // One SDL app session to a head unit: connection, negotiation, requests, state, reconnection.
        .target(
            name: "SDLClient",
            dependencies: [
                "SDLProtocol",
                "SDLSpec",
                "SDLTime",
                "SDLTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The declarative screen, menu, choice-set and media managers: pure plans of RPCs, no I/O.
        .target(
            name: "SDLManagers",
            dependencies: [
                "SDLProtocol"
            ],
            swiftSettings: swiftSettings
        ),
        // What a head unit is and does, without sockets: its profile (capabilities), the vehicle
        // (generated drive, OpenXC trace replay), how long interactions last, the media clock.
        // The simulator and the headless HMI both describe the same head unit with it.
        .target(
            name: "HeadUnitModel",
            dependencies: [
                "SDLProtocol",
                "SDLSpec",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedResources"]
        ),
        // A head unit that plays SDL Core, its HMI and the vehicle over the real protocol.
        .target(
            name: "HeadUnitSimulator",
            dependencies: [
                "HeadUnitModel",
                "SDLProtocol",
                "SDLSpec",
                "SDLTime",
                "SDLTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the gateway's HTTP API and the simulator's control API share: problem+json, the
        // operation list, the JSON content-type rule, SDLJSON responses.
        .target(
            name: "HTTPAPISupport",
            dependencies: [
                "SDLProtocol",
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A headless HMI for a real SDL Core: JSON-RPC over Core's HMI WebSocket (HMI_API.xml).
        .target(
            name: "HeadlessHMI",
            dependencies: [
                "HeadUnitModel",
                "SDLClient",
                "SDLProtocol",
                "SDLSpec",
                "SDLTime",
                "SDLTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // `sdl-gateway check`: conformance cases run against a head unit through the project's own
        // SDL client, the driver's side behind a protocol, and the run's reports (text, JUnit, HTML).
        .target(
            name: "SDLConformance",
            dependencies: [
                "SDLClient",
                "SDLProtocol",
                "SDLSpec",
                "SDLTransport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The simulator's JSON control API (Hummingbird routes) and its service.
        .target(
            name: "SimulatorControl",
            dependencies: [
                "HTTPAPISupport",
                "HeadUnitModel",
                "HeadUnitSimulator",
                "HeadlessHMI",
                "SDLClient",
                "SDLManagers",
                "SDLProtocol",
                "SDLTransport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // HummingbirdWebSocket: the live feeds of the simulator's streams.
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // NIOFileSystem: the headless HMI's files route reads Core's storage without blocking.
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // The HTTP, WebSocket and SSE API over app sessions: routes, event hub, auth, metrics.
        // It does not know the simulator: the command hands it the simulator's routes.
        .target(
            name: "Gateway",
            dependencies: [
                "HTTPAPISupport",
                "WebSocketMasking",
                "SDLClient",
                "SDLManagers",
                "SDLProtocol",
                "SDLSpec",
                "SDLTransport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Resources"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedResources"]
        ),
        // Writes a target's Resources directory as Swift source (for the EmbedResources plugin), so
        // the executable is the whole server: no resource bundle has to travel with it.
        .executableTarget(
            name: "SDLResourceEmbedder",
            swiftSettings: swiftSettings
        ),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            dependencies: ["SDLResourceEmbedder"]
        ),
        // `sdl-spec-gen`: regenerates Sources/SDLSpec/Generated from MOBILE_API.xml.
        // The benchmark harness (BENCHMARKS.md): the simulator and the gateway as processes, timed
        // against a direct SDL client.
        .executableTarget(
            name: "SDLGatewayBench",
            dependencies: [
                "ProcessHarness",
                "SDLClient",
                "SDLProtocol",
                "SDLSpec",
                "SDLTransport",
                "WebSocketMasking",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // The reliability suite (RELIABILITY.md): faults, floods and churn against the simulator
        // and the gateway as processes.
        .executableTarget(
            name: "SDLGatewayReliability",
            dependencies: [
                "ProcessHarness",
                "SDLProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // RFC 6455 §5.3's masking a word at a time: the gateway unmasks its streaming WebSockets'
        // frames with it, the benchmark masks its WebSocket client's frames with it.
        .target(
            name: "WebSocketMasking",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // What the two harnesses share: processes started and measured, a keep-alive HTTP client,
        // a countdown many tasks wait on.
        .target(
            name: "ProcessHarness",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "SDLSpecGenerator",
            dependencies: [
                "SDLSpec"
            ],
            swiftSettings: swiftSettings
        ),
        // `sdl-gateway`: the command line (serve, simulate, inspect); composes the gateway and the simulator.
        .executableTarget(
            name: "SDLGatewayCommand",
            dependencies: [
                "Gateway",
                "HTTPAPISupport",
                "HeadUnitModel",
                "HeadUnitSimulator",
                "HeadlessHMI",
                "SDLClient",
                "SDLConformance",
                "SDLProtocol",
                "SDLSpec",
                "SDLTransport",
                "SimulatorControl",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Helpers for the test targets: the OpenAPI reader, raw loopback connections, route lists.
        .target(
            name: "TestSupport",
            dependencies: [
                "HTTPAPISupport",
                "HeadlessHMI",
                "SDLProtocol",
                "SDLTransport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLProtocolTests",
            dependencies: [
                "SDLProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLConformanceTests",
            dependencies: [
                "SDLConformance",
                "SDLTransport",
                "HeadUnitSimulator",
                "SDLClient",
                "SDLProtocol",
                "SDLSpec",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLSpecTests",
            dependencies: [
                "SDLProtocol",
                "SDLSpec",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLTransportTests",
            dependencies: [
                "SDLTransport",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLClientTests",
            dependencies: [
                "HeadUnitSimulator",
                "SDLClient",
                "SDLProtocol",
                "SDLSpec",
                "SDLTime",
                "SDLTransport",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLManagersTests",
            dependencies: [
                "SDLManagers",
                "SDLProtocol",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLTimeTests",
            dependencies: [
                "SDLTime",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HeadUnitModelTests",
            dependencies: [
                "HeadUnitModel",
                "SDLProtocol",
                "SDLSpec",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HeadUnitSimulatorTests",
            dependencies: [
                "HeadUnitModel",
                "HeadUnitSimulator",
                "SDLProtocol",
                "SDLSpec",
                "SDLTime",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SimulatorControlTests",
            dependencies: [
                "HTTPAPISupport",
                "HeadUnitModel",
                "HeadUnitSimulator",
                "HeadlessHMI",
                "SDLManagers",
                "SDLProtocol",
                "SDLTransport",
                "SimulatorControl",
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // NIOWebSocket: the close codes the live feeds answer with.
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway",
                "HTTPAPISupport",
                "HeadUnitModel",
                "HeadUnitSimulator",
                "HeadlessHMI",
                "SDLClient",
                "SDLProtocol",
                "SDLSpec",
                "SDLTransport",
                "SimulatorControl",
                "TestSupport",
                "WebSocketMasking",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLGatewayBenchTests",
            dependencies: [
                "HeadUnitSimulator",
                "ProcessHarness",
                "SDLClient",
                "SDLGatewayBench",
                "SDLProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HeadlessHMITests",
            dependencies: [
                "HeadUnitModel",
                "HeadlessHMI",
                "SDLClient",
                "SDLProtocol",
                "SDLTime",
                "SDLTransport",
                "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SDLGatewayCommandTests",
            dependencies: [
                "Gateway",
                "HeadUnitSimulator",
                "HeadlessHMI",
                "SDLClient",
                "SDLGatewayCommand",
                "SDLProtocol",
                "SDLSpec",
                "SDLTransport",
                "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
