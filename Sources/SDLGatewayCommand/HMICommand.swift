import ArgumentParser
import Foundation
import HTTPAPISupport
import HeadUnitModel
import HeadlessHMI
import Hummingbird
import Logging
import SDLTransport
import ServiceLifecycle
import SimulatorControl
import UnixSignals

/// `sdl-gateway hmi`: a headless HMI for a real SDL Core, so that Core serves apps without a
/// browser running generic_hmi, with a JSON control API that drives Core the way the simulator's
/// drives the simulator.
struct HMICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hmi",
        abstract: "Run a headless HMI for SDL Core (JSON-RPC over Core's HMI WebSocket) with a control API.",
        discussion: """
            It connects to Core's HMI port (--core-hmi, ws://127.0.0.1:8087 by default; Core's ini has \
            ServerAddress/ServerPort), registers every component, answers Core's start-up requests from a \
            head-unit profile (--capabilities: the simulator's profile format, or SDL Core's own \
            hmi_capabilities.json as it is; the simulator's built-in profile by default), keeps the list of apps and, with --auto-activate, activates each new app. It \
            connects again with backoff whenever Core is not there or restarts. The control API on \
            --control (JSON over HTTP, no tokens: loopback unless --insecure) activates apps, presses \
            buttons, picks commands, answers alerts, sliders and choices (which otherwise end after their \
            duration or timeout, scaled by --time-scale) and sets driver distraction. Every option can also come from the \
            environment: SDL_HMI_CORE, SDL_HMI_CAPABILITIES, SDL_HMI_CONTROL, SDL_HMI_AUTO_ACTIVATE, \
            SDL_HMI_TIME_SCALE, SDL_HMI_TRACE, SDL_HMI_TRACE_SPEED, SDL_HMI_INSECURE, SDL_HMI_LOG_LEVEL, SDL_HMI_LOG_FORMAT.
            """
    )

    @Option(name: .customLong("core-hmi"), help: "Core's HMI WebSocket (ws://host:port).")
    var coreHMI: String?

    @Option(
        help:
            "The capabilities to answer Core with: core-8.2 (the default), full, or a file: a profile (as sdl-gateway simulate --profile) or Core's hmi_capabilities.json."
    )
    var capabilities: String?

    @Option(help: "Where the control API listens (host:port; port 0 picks one).")
    var control: String?

    @Flag(help: "Activate (FULL) each app as soon as Core registers it.")
    var autoActivate = false

    @Option(help: "An OpenXC trace (newline-delimited JSON) to replay, looping, as the vehicle instead of the generated drive.")
    var trace: String?

    @Option(help: "Replay speed of --trace (2 = twice as fast), above 0 and at most 1000. Default 1.")
    var traceSpeed: Double?

    @Option(
        help:
            "Multiplies how long alerts, speech, sliders and choices wait for the driver (0.1 = ten times faster), above 0 and at most 1000. Default 1."
    )
    var timeScale: Double?

    @Flag(help: "Allow the control API, which has no tokens, to listen beyond loopback.")
    var insecure = false

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level?

    @Option(help: "text or json (one JSON object per line on standard output).")
    var logFormat: LogFormat?

    static let variables = [
        "SDL_HMI_CORE", "SDL_HMI_CAPABILITIES", "SDL_HMI_CONTROL", "SDL_HMI_AUTO_ACTIVATE", "SDL_HMI_INSECURE", "SDL_HMI_LOG_LEVEL",
        "SDL_HMI_LOG_FORMAT", "SDL_HMI_TIME_SCALE", "SDL_HMI_TRACE", "SDL_HMI_TRACE_SPEED",
    ]

    /// The settings, from the command line, else the environment, else the defaults.
    struct Resolved {
        var core: SDLTransportAddress
        var control: HostPort
        var profile: SimulatorProfile
        var autoActivate: Bool
        var timeScale: Double
        var vehicle: VehicleSource
        var logLevel: Logger.Level
        var logFormat: LogFormat
    }

    func resolved(environment: [String: String]) throws -> Resolved {
        try SettingsValue.checkVariables(environment, prefix: "SDL_HMI_", known: Self.variables)
        let coreText = coreHMI ?? environment["SDL_HMI_CORE"] ?? "ws://127.0.0.1:8087"
        let core: SDLTransportAddress
        do throws(SDLTransportError) {
            core = try SDLTransportAddress(coreText)
        } catch {
            throw ValidationError("--core-hmi: \(error.detail)")
        }
        guard core.scheme != .tcp else { throw ValidationError("--core-hmi is Core's HMI WebSocket, ws:// or wss:// (got \(coreText))") }
        let control = try HostPort(
            control ?? environment["SDL_HMI_CONTROL"] ?? "127.0.0.1:12346", option: "--control", example: "127.0.0.1:12346")
        let insecure = try insecure || SettingsValue.bool(environment, "SDL_HMI_INSECURE") == true
        if !insecure, !ServeSettings.isLoopback(control.host) {
            throw ValidationError(
                "the control API on \(control.host) would let anyone drive the head unit: keep it on loopback or give --insecure")
        }
        var profile = SimulatorProfile.default
        if let path = capabilities ?? environment["SDL_HMI_CAPABILITIES"] {
            do throws(SimulatorProfileError) {
                profile = try SimulatorProfile(nameOrPath: path)
            } catch {
                throw ValidationError("--capabilities: \(error)")
            }
        }
        func number(_ option: Double?, _ flag: String, _ variable: String) throws -> Double {
            let value =
                try option ?? environment[variable].map { text in
                    guard let number = Double(text) else { throw ValidationError("\(variable)=\(text) is not a number.") }
                    return number
                } ?? 1
            guard value > 0, value <= 1000 else {
                throw ValidationError("\(flag) (\(variable)) must be above 0 and at most 1000 (got \(value)).")
            }
            return value
        }
        let scale = try number(timeScale, "--time-scale", "SDL_HMI_TIME_SCALE")
        let speed = try number(traceSpeed, "--trace-speed", "SDL_HMI_TRACE_SPEED")
        var vehicle = VehicleSource.generated(GeneratedDrive())
        if let path = trace ?? environment["SDL_HMI_TRACE"] {
            do {
                vehicle = .trace(try OpenXCTrace(contentsOfFile: path), speed: speed, loop: true)
            } catch {
                throw ValidationError("--trace: \(error)")
            }
        }
        return Resolved(
            core: core, control: control, profile: profile,
            autoActivate: try autoActivate || SettingsValue.bool(environment, "SDL_HMI_AUTO_ACTIVATE") == true,
            timeScale: scale, vehicle: vehicle,
            logLevel: try logLevel ?? SettingsValue.choice(environment, "SDL_HMI_LOG_LEVEL") ?? .info,
            logFormat: try logFormat ?? SettingsValue.choice(environment, "SDL_HMI_LOG_FORMAT") ?? .text
        )
    }

    func run() async throws {
        let settings = try resolved(environment: ProcessInfo.processInfo.environment)
        settings.logFormat.bootstrap(level: settings.logLevel)
        var logger = Logger(label: "sdl-gateway.hmi")
        logger.logLevel = settings.logLevel
        let announce: @Sendable (String) -> Void = settings.logFormat == .json ? JSONLogHandler.announce : announceLine
        let connection = HMIConnection(
            address: settings.core,
            hmi: HeadlessHMI(
                answers: HMIAnswers(profile: settings.profile), autoActivate: settings.autoActivate, timeScale: settings.timeScale),
            logger: logger, vehicle: settings.vehicle
        )
        let control = settings.control
        let routes = HMIControlRoutes(connection: connection)
        let loopbackHostsOnly = ServeSettings.isLoopback(control.host)
        let controlApp = Application(
            router: routes.makeRouter(loopbackHostsOnly: loopbackHostsOnly),
            server: routes.makeServer(loopbackHostsOnly: loopbackHostsOnly),
            configuration: .init(address: .hostname(control.host, port: control.port), serverName: "sdl-gateway-hmi"),
            onServerRunning: { channel in
                announce(
                    "HMI control API on http://\(control.host):\(channel.localAddress?.port ?? control.port) (SDL Core's HMI at \(settings.core))"
                )
            },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(services: [connection, controlApp], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
    }
}
