import ArgumentParser
import Foundation
import HTTPAPISupport
import HeadUnitSimulator
import Hummingbird
import Logging
import NIOCore
import SDLSpec
import ServiceLifecycle
import UnixSignals
import SimulatorControl

/// `sdl-gateway simulate`: a head unit (SDL Core, its HMI and a vehicle) on a TCP port and,
/// optionally, a WebSocket port (SDL Core's WebSocket server for apps), with a JSON control API
/// beside it.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a simulated head unit that speaks the SDL protocol like SDL Core 8.2.",
        discussion: """
            Apps connect to --listen as they would to SDL Core's TCP port, and to --ws-listen (off unless \
            given) as they would to Core's WebSocket server for apps (ws://, one SDL frame per binary \
            message, any path); both reach the same head unit. The control API on --control \
            (JSON over HTTP) changes HMI levels, presses buttons, answers interactions, sets vehicle data \
            and injects faults. Every option can also come from an environment variable: \
            SDL_SIMULATOR_LISTEN, SDL_SIMULATOR_WS_LISTEN, SDL_SIMULATOR_CONTROL, SDL_SIMULATOR_AUTO_ACTIVATE, SDL_SIMULATOR_INSECURE, \
            SDL_SIMULATOR_POLICY, SDL_SIMULATOR_TRACE, SDL_SIMULATOR_TRACE_SPEED, SDL_SIMULATOR_PROFILE, SDL_SIMULATOR_TIME_SCALE, SDL_SIMULATOR_PRETTY_JSON, \
            SDL_SIMULATOR_RESUMING_TIMEOUT, SDL_SIMULATOR_REQUEST_LIMIT, SDL_SIMULATOR_FILE_STORAGE_LIMIT; \
            the flags take 1/0, true/false, yes/no or on/off, and anything else stops start-up.
            """
    )

    @Option(help: "Where apps connect (host:port; port 0 picks one).")
    var listen: String = ProcessInfo.processInfo.environment["SDL_SIMULATOR_LISTEN"] ?? "127.0.0.1:12345"

    @Option(help: "Where apps connect over WebSocket (ws://, host:port; port 0 picks one; off unless given).")
    var wsListen: String?

    /// `--ws-listen`, else `SDL_SIMULATOR_WS_LISTEN`, else none.
    var webSocketListen: String? { wsListen ?? ProcessInfo.processInfo.environment["SDL_SIMULATOR_WS_LISTEN"] }

    @Option(help: "Where the control API listens (host:port; port 0 picks one).")
    var control: String = ProcessInfo.processInfo.environment["SDL_SIMULATOR_CONTROL"] ?? "127.0.0.1:12346"

    @OptionGroup(title: "Head unit")
    var headUnit: SimulatorOptions

    @Flag(help: "Bring each new app to FULL shortly after it registers.")
    var autoActivate = false

    @Option(help: "A MOBILE_API.xml to validate against instead of the built-in rpc_spec 8.0.0.")
    var rpcSpec: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Flag(help: "Allow the control API, which has no tokens, to listen beyond loopback.")
    var insecure = false

    static let variables =
        [
            "SDL_SIMULATOR_LISTEN", "SDL_SIMULATOR_WS_LISTEN", "SDL_SIMULATOR_CONTROL", "SDL_SIMULATOR_AUTO_ACTIVATE",
            "SDL_SIMULATOR_INSECURE",
        ] + SimulatorOptions.variables

    /// Takes the head unit's options and the flags from the environment where the command line
    /// does not give them, refusing an unknown `SDL_SIMULATOR_*` variable, a policy other than
    /// open or default, a speed or scale that is not a number in range and a flag other than
    /// 1/0, true/false, yes/no or on/off.
    mutating func readEnvironment(_ environment: [String: String]) throws {
        try SettingsValue.checkVariables(environment, prefix: "SDL_SIMULATOR_", known: Self.variables)
        _ = try headUnit.resolved(environment: environment)
        let autoActivate = try SettingsValue.bool(environment, "SDL_SIMULATOR_AUTO_ACTIVATE")
        self.autoActivate = self.autoActivate || autoActivate == true
        let insecure = try SettingsValue.bool(environment, "SDL_SIMULATOR_INSECURE")
        self.insecure = self.insecure || insecure == true
    }

    mutating func validate() throws {
        try readEnvironment(ProcessInfo.processInfo.environment)
        _ = try HostPort(listen, option: "--listen", example: "127.0.0.1:12345")
        let controlAddress = try HostPort(control, option: "--control", example: "127.0.0.1:12346")
        // The control API drives the simulated car and has no tokens (serve --simulate mounts it
        // behind the gateway's): beyond loopback only when told.
        if !insecure, !ServeSettings.isLoopback(controlAddress.host) {
            throw ValidationError(
                "the control API on \(controlAddress.host) would let anyone drive the simulated head unit: keep it on loopback, use serve --simulate --token, or give --insecure"
            )
        }
        if let webSocketListen { _ = try HostPort(webSocketListen, option: "--ws-listen", example: "127.0.0.1:2020") }
    }

    func run() async throws {
        var logger = Logger(label: "sdl-gateway.simulate")
        logger.logLevel = logLevel
        let configuration = try makeConfiguration()
        let simulator = SimulatedHeadUnit(configuration: configuration, logger: logger)
        let sdl = try HostPort(listen, option: "--listen", example: "127.0.0.1:12345")
        let controlAddress = try HostPort(control, option: "--control", example: "127.0.0.1:12346")
        let controlRoutes = SimulatorControlRoutes(simulator: simulator)
        let loopbackOnly = ServeSettings.isLoopback(controlAddress.host)
        let controlApp = Application(
            router: controlRoutes.makeRouter(loopbackHostsOnly: loopbackOnly),
            server: controlRoutes.makeServer(loopbackHostsOnly: loopbackOnly),
            configuration: .init(address: .hostname(controlAddress.host, port: controlAddress.port), serverName: "sdl-gateway-simulator"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? controlAddress.port
                announceLine("control API on http://\(controlAddress.host):\(port)")
            },
            logger: logger
        )
        let webSocket = try webSocketListen.map { try HostPort($0, option: "--ws-listen", example: "127.0.0.1:2020") }
        var listeners: [SimulatedHeadUnit.Listener] = [.tcp(host: sdl.host, port: sdl.port)]
        if let webSocket { listeners.append(.webSocket(host: webSocket.host, port: webSocket.port)) }
        let service = SimulatorService(simulator: simulator, listeners: listeners) { addresses in
            announceLine("SDL head unit on \(sdl.host):\(addresses.first?.port ?? sdl.port)")
            if let webSocket, addresses.count > 1 {
                announceLine("SDL WebSocket on \(webSocket.host):\(addresses[1].port ?? webSocket.port)")
            }
        }
        let group = ServiceGroup(
            configuration: .init(services: [service, controlApp], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
    }

    func makeConfiguration() throws -> HeadUnitConfiguration {
        var configuration = HeadUnitConfiguration()
        if let rpcSpec {
            configuration.catalog = try SDLCatalog(contentsOf: URL(fileURLWithPath: rpcSpec))
        }
        configuration.autoActivate = autoActivate
        try headUnit.resolved(environment: ProcessInfo.processInfo.environment).apply(to: &configuration)
        return configuration
    }
}

/// Writes a line to standard output at once (scripts and tests wait for these lines).
@Sendable func announceLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `host:port` from the command line.
struct HostPort: Equatable {
    var host: String
    var port: Int

    /// Loopback, port 0: a free port, picked when bound.
    static let anyLoopbackPort = HostPort(host: "127.0.0.1", port: 0)

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `example` is an address that option would take (its default), shown when `text` is not one.
    init(_ text: String, option: String, example: String) throws {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else {
            throw ValidationError("\(option) must be host:port, e.g. \(example) (got \(text)).")
        }
        host = String(text[..<colon])
        self.port = port
        guard !host.isEmpty else { throw ValidationError("\(option) has no host (got \(text)).") }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
