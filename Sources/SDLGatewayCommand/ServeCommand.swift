import ArgumentParser
import Foundation
import Gateway
import HeadUnitModel
import HeadUnitSimulator
import HeadlessHMI
import Logging
import Metrics
import NIOCore
import NIOPosix
import Prometheus
import SDLTransport
import ServiceLifecycle
import SimulatorControl
import UnixSignals

/// `sdl-gateway serve`: the HTTP, WebSocket and SSE API over app sessions to a head unit (SDL
/// Core, or with `--simulate` the built-in simulator in-process).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the JSON REST, WebSocket and SSE API over SDL app sessions.",
        discussion: """
            Every option can also come from the environment (SDL_GATEWAY_LISTEN, SDL_GATEWAY_CORE, \
            SDL_GATEWAY_SIMULATE=1, SDL_GATEWAY_HMI, SDL_GATEWAY_CONFIG, SDL_GATEWAY_TOKENS, SDL_GATEWAY_RPC_SPEC, SDL_GATEWAY_PUBLIC, \
            SDL_GATEWAY_CORS_ORIGINS, SDL_GATEWAY_RATE_LIMIT, SDL_GATEWAY_CORE_REQUEST_LIMIT, SDL_GATEWAY_HEARTBEAT, SDL_GATEWAY_RECORD, SDL_GATEWAY_LOG_LEVEL, SDL_GATEWAY_LOG_FORMAT, SDL_GATEWAY_INSECURE=1) and from the JSON config file; \
            the simulator's options of --simulate take the variables of sdl-gateway simulate (SDL_SIMULATOR_POLICY, SDL_SIMULATOR_TRACE, \
            SDL_SIMULATOR_TRACE_SPEED, SDL_SIMULATOR_PROFILE, SDL_SIMULATOR_TIME_SCALE, SDL_SIMULATOR_PRETTY_JSON, SDL_SIMULATOR_RESUMING_TIMEOUT, SDL_SIMULATOR_REQUEST_LIMIT, SDL_SIMULATOR_FILE_STORAGE_LIMIT, SDL_SIMULATOR_LISTEN, SDL_SIMULATOR_WS_LISTEN) and the file's "simulator" object; \
            without --simulate a SDL_SIMULATOR_ variable stops start-up; \
            the command line wins over the environment, which wins over the file. Settings are checked strictly: \
            an unknown key or SDL_GATEWAY_ variable, a value of the wrong type, or a boolean variable other than \
            1/0, true/false, yes/no or on/off stops start-up with a message naming it.
            --record DIR (SDL_GATEWAY_RECORD, "record") writes every app session's SDL bytes, both directions with \
            times, to DIR/<app id>-<UTC start>.sdlcap (DIR is created if missing); sdl-gateway inspect FILE decodes them.
            """
    )

    @Option(help: "Where the API listens (host:port; port 0 picks one). Default 127.0.0.1:8080.")
    var listen: String?

    @Option(help: "The head unit's app port (tcp://host:port). Default tcp://127.0.0.1:12345.")
    var core: String?

    @Option(
        name: .customLong("allow-core"),
        help: "Another head unit (tcp://, ws:// or wss:// URL) that POST /v1/apps may name as its core. Repeatable.")
    var allowedCores: [String] = []

    @Flag(help: "Run the head-unit simulator in-process (auto-activate, open policy) and use it as the head unit.")
    var simulate = false

    @Option(
        help:
            "Run a headless HMI in-process on SDL Core's HMI WebSocket (ws://host:8087): Core serves apps without a browser HMI; it activates new apps and its control API is at /v1/hmi."
    )
    var hmi: String?

    @OptionGroup(title: "Simulator (with --simulate)")
    var simulator: SimulatorOptions

    @Option(
        name: .customLong("simulator-listen"),
        help:
            "With --simulate: where other SDL apps reach the simulated head unit over TCP, as they would Core's port 12345 (host:port). Default 127.0.0.1:0, a free port."
    )
    var simulatorListen: String?

    @Option(
        name: .customLong("simulator-ws-listen"),
        help: "With --simulate: where other SDL apps reach it over WebSocket, as Core's port 2020 (host:port). Off unless given.")
    var simulatorWebSocketListen: String?

    /// The simulator's listen options given on the command line, by their flag.
    var simulatorListenOptionsGiven: [String] {
        [("--simulator-listen", simulatorListen != nil), ("--simulator-ws-listen", simulatorWebSocketListen != nil)].filter(\.1).map(\.0)
    }

    @Option(help: "A JSON config file (options, limits and apps to register at start).")
    var config: String?

    @Option(name: .customLong("token"), help: "A bearer token, TOKEN or TOKEN:read / TOKEN:control (default control). Repeatable.")
    var tokens: [String] = []

    @Option(help: "A MOBILE_API.xml to use instead of the built-in rpc_spec 8.0.0.")
    var rpcSpec: String?

    @Option(name: .customLong("public"), help: "A directory served at / instead of the built-in page.")
    var publicDirectory: String?

    @Option(name: .customLong("cors-origin"), help: "An origin allowed by CORS and for WebSockets (* for any). Repeatable.")
    var corsOrigins: [String] = []

    @Option(
        help: "Requests per second each client (token, else address) may make, averaged over 10 s; 0 turns the limit off. Default 1000.")
    var rateLimit: Int?

    @Option(
        help:
            "Requests per 10 s SDL Core allows each app (its AppTimeScaleMaxRequests; 0: no limit); the gateway's sessions keep to 90 % of it. Default 1000, or --request-limit with --simulate."
    )
    var coreRequestLimit: Int?

    @Option(
        help:
            "Seconds between the gateway's Heartbeats on a quiet SDL session (v3–v5); a head unit silent for three of them is declared lost and reconnected. 0: Heartbeats on v3 only, as the app libraries send them. Default 5."
    )
    var heartbeat: Int?

    @Option(help: "Apps the gateway holds at once; one more is refused 503 too-many-apps. Default 250.")
    var maxApps: Int?

    @Option(help: "Record every app session's SDL bytes to DIR/<app id>-<UTC start>.sdlcap, for sdl-gateway inspect. Off by default.")
    var record: String?

    @Flag(help: "Allow listening on a non-loopback address without tokens.")
    var insecure = false

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level?

    @Option(
        help: "text (swift-log's lines on standard error) or json (one JSON object per line on standard output, announcements included).")
    var logFormat: LogFormat?

    func run() async throws {
        var settings = try ServeSettings(command: self, environment: ProcessInfo.processInfo.environment)
        settings.logFormat.bootstrap(level: settings.logLevel)
        var logger = Logger(label: "sdl-gateway")
        logger.logLevel = settings.logLevel
        let prometheus = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: prometheus))

        // A port in use is said before anything starts (not after the simulator announced itself).
        try await Self.checkListenAddress(settings.listen)
        // The lines scripts wait for, whatever the log level: plain, or as JSON log lines among the others.
        let announce: @Sendable (String) -> Void = settings.logFormat == .json ? JSONLogHandler.announce : announceLine
        var companion = GatewayCompanion()
        if settings.simulate {
            var headUnit = HeadUnitConfiguration()
            headUnit.autoActivate = true
            headUnit.catalog = settings.catalog
            try settings.headUnit?.apply(to: &headUnit)
            let simulated = SimulatedHeadUnit(configuration: headUnit, logger: logger)
            // Bound once, here: the port the apps connect to is the one the simulator holds.
            var listeners: [SimulatedHeadUnit.Listener] = [.tcp(host: settings.simulatorListen.host, port: settings.simulatorListen.port)]
            if let webSocket = settings.simulatorWebSocketListen {
                listeners.append(.webSocket(host: webSocket.host, port: webSocket.port))
            }
            let bound = try await simulated.bind(listeners)
            let port = bound.ports[0]
            let host = settings.simulatorListen.host
            // The gateway's own sessions reach it on loopback whatever address it listens on.
            let reachable = ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
            settings.configuration.sessions.defaultCore = SDLTransportAddress.tcp(host: reachable, port: port)
            announce("SDL head unit (simulated) on \(host):\(port)")
            if let webSocket = settings.simulatorWebSocketListen, bound.ports.count > 1 {
                announce("SDL WebSocket (simulated) on \(webSocket.host):\(bound.ports[1])")
            }
            companion.services.append(SimulatorService(simulator: simulated, bound: bound))
            companion.routeGroups.append(SimulatorControlRoutes.gatewayRouteGroup(simulated))
        } else {
            companion.routeGroups.append(
                .unavailable(
                    path: "v1/simulator", operations: SimulatorControlRoutes.operations,
                    detail: "the simulator is off: its control API exists under sdl-gateway serve --simulate")
            )
        }
        if let hmiAddress = settings.hmi {
            let connection = HMIConnection(
                address: hmiAddress, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default), autoActivate: true), logger: logger
            )
            announce("headless HMI for SDL Core at \(hmiAddress)")
            companion.services.append(connection)
            companion.routeGroups.append(HMIControlRoutes.gatewayRouteGroup(connection))
        } else {
            companion.routeGroups.append(
                .unavailable(
                    path: "v1/hmi", operations: HMIControlRoutes.operations,
                    detail: "the headless HMI is off: its control API exists under sdl-gateway serve --hmi ws://CORE:8087")
            )
        }
        // The head-unit links' own loop, shut down once the application ended.
        let configuration = settings.configuration
        let listen = settings.listen
        try await HeadUnitEventLoops.with { loops in
            var configuration = configuration
            configuration.sessions.eventLoopGroup = loops
            try await Self.runApplication(
                configuration, listen: listen, companion: companion, prometheus: prometheus, logger: logger, announce: announce)
        }
    }

    /// Runs the gateway until SIGTERM or SIGINT, and stops it gracefully.
    static func runApplication(
        _ configuration: GatewayConfiguration, listen: HostPort, companion: GatewayCompanion, prometheus: PrometheusCollectorRegistry,
        logger: Logger,
        announce: @escaping @Sendable (String) -> Void
    ) async throws {
        let headUnit = configuration.sessions.defaultCore
        let (application, apps) = try await buildApplication(
            configuration, companion: companion, prometheus: prometheus, logger: logger,
            onServerRunning: { channel in
                announce("sdl-gateway on http://\(listen.host):\(channel.localAddress?.port ?? listen.port) (head unit \(headUnit))")
            }
        )
        // The closer is told first (services stop in reverse order): the event WebSockets close
        // with 1001 before the server's shutdown would close them with 1000.
        let services: [any Service] = [application, EventStreamCloser(hub: apps.hub)]
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as IOError where ListenError.isListenFailure(error) {
            throw ListenError(address: "\(listen.host):\(listen.port)", error: error)
        }
    }

    /// Binds `address` once and lets it go, so that a port in use (or an address this machine
    /// does not have) stops start-up before the simulator or any app starts. Port 0 always binds.
    static func checkListenAddress(_ address: HostPort) async throws {
        guard address.port != 0 else { return }
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: address.host, port: address.port).get()
            try await channel.close()
        } catch let error as IOError {
            throw ListenError(address: "\(address.host):\(address.port)", error: error)
        }
    }

    /// The API could not listen where it was told: said with the address, not as a bind(2) call.
    struct ListenError: Error, CustomStringConvertible {
        var address: String
        var reason: String
        var description: String { "cannot listen on \(address): \(reason); choose another with --listen (SDL_GATEWAY_LISTEN)" }

        init(address: String, error: IOError) {
            self.address = address
            self.reason = error.errnoCode == EADDRINUSE ? "the address is in use (another sdl-gateway?)" : "\(error)"
        }

        static func isListenFailure(_ error: IOError) -> Bool {
            [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(error.errnoCode)
        }
    }
}
