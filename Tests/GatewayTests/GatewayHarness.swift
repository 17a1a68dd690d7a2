import Gateway
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import HummingbirdWebSocket
import Logging
import NIOCore
import Prometheus
import SDLProtocol
import SDLTransport
import SimulatorControl
import TestSupport
import Testing

/// A gateway in front of a simulated head unit on loopback, under HummingbirdTesting: the same
/// application `sdl-gateway serve` builds (``buildApplication``), logging to `logger`.
enum GatewayHarness {
    /// The simulator's WebSocket listener (SDL Core's WebEngine transport) while a body runs.
    @TaskLocal static var webSocketPort: Int?

    static func withGateway(
        _ configuration: GatewayConfiguration = GatewayConfiguration(),
        policy: SimulatorPolicy = .open,
        mode: TestingSetup = .router,
        timeScale: Double = 0.01,
        prometheus: PrometheusCollectorRegistry? = nil,
        logger: Logger = Logger.test("test"),
        through tap: WireTap? = nil,
        _ body: @Sendable (any TestClientProtocol, SimulatedHeadUnit, GatewayApps) async throws -> Void
    ) async throws {
        let simulator = SimulatedHeadUnit(
            configuration: HeadUnitConfiguration(
                policy: policy, autoActivate: true, autoActivateDelay: .milliseconds(20), timeScale: timeScale),
            logger: Logger.test("test")
        )
        try await simulator.withListening([.tcp(host: "127.0.0.1", port: 0), .webSocket(host: "127.0.0.1", port: 0)]) { ports in
            try await Self.through(tap, to: ports[0]) { corePort in
                var configuration = configuration
                configuration.port = 0
                // The simulator's ports (its TCP one through `tap`, when given) and short waits; a
                // test's other session options stay.
                configuration.sessions.defaultCore = SDLTransportAddress.tcp(host: "127.0.0.1", port: corePort)
                configuration.sessions.allowedCores = [SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: ports[1])]
                configuration.sessions.registrationWait = .seconds(5)
                configuration.sessions.shutdownGracePeriod = .seconds(2)
                // The head-unit links on a loop of their own, as under `sdl-gateway serve`.
                try await HeadUnitEventLoops.with { loops in
                    configuration.sessions.eventLoopGroup = loops
                    let (application, apps) = try await buildApplication(
                        configuration, companion: GatewayCompanion(routeGroups: [simulatorRoutes(simulator)]), prometheus: prometheus,
                        logger: logger
                    )
                    try await $webSocketPort.withValue(ports[1]) {
                        try await application.test(mode) { client in try await body(client, simulator, apps) }
                    }
                }
            }
        }
    }

    /// Runs `body` with `port`, or with the port of `tap` forwarding to it while `body` runs.
    static func through(_ tap: WireTap?, to port: Int, _ body: (Int) async throws -> Void) async throws {
        guard let tap else { return try await body(port) }
        let (ports, listening) = AsyncStream<Int>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await tap.run(upstreamPort: port) { listening.yield($0) } }
            var iterator = ports.makeAsyncIterator()
            let tapPort = try #require(await iterator.next())
            try await body(tapPort)
            group.cancelAll()
        }
    }

    /// The simulator's control API mounted as `serve --simulate` mounts it.
    static func simulatorRoutes(_ simulator: SimulatedHeadUnit) -> GatewayRouteGroup {
        @Sendable func names(_ apps: GatewayApps) -> GatewayNames {
            GatewayNames(
                sdlAppID: { apps.sdlAppID(ofApp: $0) }, apps: { apps.apps(withSDLAppID: $0) }, declaredIDs: { apps.declaredIDs(ofApp: $0) })
        }
        return GatewayRouteGroup(
            path: "v1/simulator", operations: SimulatorControlRoutes.operations,
            addRoutes: { group, apps in SimulatorControlRoutes(simulator: simulator, names: names(apps)).add(to: group) },
            addWebSocketRoutes: { group, apps in
                SimulatorControlRoutes(simulator: simulator, names: names(apps)).addWebSocketRoutes(to: group)
            }
        )
    }

    /// `POST /v1/apps` for a test app; the app resource.
    @discardableResult
    static func createApp(
        _ client: any TestClientProtocol, id: String = "demo", appID: String? = nil, headers: HTTPFields = [:]
    ) async throws -> SDLJSON {
        let body: SDLJSON = ["id": .string(id), "appName": .string("App \(id)"), "appID": .string(appID ?? "\(id)-app")]
        var headers = headers
        headers[.contentType] = "application/json"
        return try await client.execute(uri: "/v1/apps", method: .post, headers: headers, body: ByteBuffer(bytes: body.serializedBytes())) {
            response in
            #expect(response.status == .created, "create \(id): \(String(buffer: response.body))")
            return try SDLJSON.parse(response.body)
        }
    }

    static func json(_ value: SDLJSON) -> ByteBuffer { ByteBuffer(bytes: value.serializedBytes()) }

    static let jsonHeaders: HTTPFields = [.contentType: "application/json"]
}

extension TestResponse {
    var json: SDLJSON? { try? SDLJSON.parse(body) }
    var problemType: String? { json?["type"]?.stringValue.map { String($0.dropFirst("urn:sdl-gateway:problem:".count)) } }
}
