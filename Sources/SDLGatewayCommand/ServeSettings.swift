import ArgumentParser
import Foundation
import HTTPAPISupport
import Gateway
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import SDLSpec
import SDLTransport

/// The settings of `serve`, each from the command line, else the environment, else the config
/// file, else its default. The config file is JSON:
///
/// ```json
/// {"listen": "0.0.0.0:8080", "core": "tcp://sdl-core:12345", "simulate": false,
///  "tokens": {"s3cret": "control", "dashboards": "read"}, "corsOrigins": ["http://localhost:3000"],
///  "rpcSpec": "MOBILE_API.xml", "public": "public", "logLevel": "info", "logFormat": "json", "insecure": false, "record": "captures",
///  "heartbeat": 5, "maxApps": 250,
///  "limits": {"bodySize": 1048576, "fileSize": 67108864, "webSocketMessageSize": 1048576, "requestsPerSecond": 1000, "idleTimeout": 60,
///             "authFailuresPerMinute": 20, "eventStreamKeepAlive": 15, "imageStoreSize": 16777216, "requestHeadTimeout": 10,
///             "minimumBodyRate": 1024, "bodyRateGrace": 10, "audioRecordingSize": 16777216},
///  "events": {"ringCapacity": 10000, "clientQueueCapacity": 1000, "maximumClients": 100, "ringBytes": 8388608},
///  "apps": [{"id": "radio", "appName": "Radio", "appID": "radio-1"}],
///  "simulator": {"policy": "default", "trace": "drive.json", "traceSpeed": 2, "profile": "head-unit.json", "timeScale": 0.1}}
/// ```
///
/// Mistakes stop start-up naming the setting and what it accepts: an unknown key in the file or
/// `SDL_GATEWAY_*` variable, a value of the wrong JSON type, a boolean variable other than
/// 1/0, true/false, yes/no, on/off, a log level not in the list.
struct ServeSettings {
    static let variables = [
        "SDL_GATEWAY_LISTEN", "SDL_GATEWAY_CORE", "SDL_GATEWAY_ALLOW_CORES", "SDL_GATEWAY_SIMULATE", "SDL_GATEWAY_CONFIG",
        "SDL_GATEWAY_TOKENS", "SDL_GATEWAY_RPC_SPEC", "SDL_GATEWAY_PUBLIC", "SDL_GATEWAY_CORS_ORIGINS", "SDL_GATEWAY_LOG_LEVEL",
        "SDL_GATEWAY_LOG_FORMAT",
        "SDL_GATEWAY_INSECURE", "SDL_GATEWAY_RATE_LIMIT", "SDL_GATEWAY_RECORD", "SDL_GATEWAY_HMI",
        "SDL_GATEWAY_CORE_REQUEST_LIMIT",
        "SDL_GATEWAY_HEARTBEAT", "SDL_GATEWAY_MAX_APPS",
    ]

    var listen: HostPort
    var core: SDLTransportAddress
    var allowedCores: [SDLTransportAddress] = []
    var simulate: Bool
    /// SDL Core's HMI WebSocket for the in-process headless HMI (`--hmi`), nil without it.
    var hmi: SDLTransportAddress?
    /// The simulator's options with `simulate` (nil without it).
    var headUnit: SimulatorOptions.Resolved?
    /// With `simulate`: where the simulated head unit takes apps over TCP (`--simulator-listen`,
    /// `SDL_SIMULATOR_LISTEN`, `"simulator.listen"`); port 0, the default, picks a free one.
    var simulatorListen = HostPort.anyLoopbackPort
    /// With `simulate`: where it takes apps over WebSocket, off unless given.
    var simulatorWebSocketListen: HostPort?
    var logLevel: Logger.Level
    var logFormat: LogFormat
    var catalog: SDLCatalog
    var configuration: GatewayConfiguration

    init(command: ServeCommand, environment: [String: String]) throws {
        try SettingsValue.checkVariables(environment, prefix: "SDL_GATEWAY_", known: Self.variables)
        let file = try (command.config ?? environment["SDL_GATEWAY_CONFIG"]).map { try ServeConfigFile(path: $0) } ?? ServeConfigFile()
        // Each source is checked even when a higher one decides, so a mistake does not wait for the day it matters.
        func setting(_ option: String?, _ variable: String, _ key: String) throws -> String? {
            let fromFile = try file.string(key)
            return option ?? environment[variable] ?? fromFile
        }
        func flag(_ option: Bool, _ variable: String, _ key: String) throws -> Bool {
            let fromEnvironment = try SettingsValue.bool(environment, variable)
            let fromFile = try file.bool(key)
            return option || (fromEnvironment ?? fromFile ?? false)
        }
        listen = try HostPort(
            try setting(command.listen, "SDL_GATEWAY_LISTEN", "listen") ?? "127.0.0.1:8080", option: "--listen", example: "127.0.0.1:8080")
        let coreText = try setting(command.core, "SDL_GATEWAY_CORE", "core") ?? "tcp://127.0.0.1:12345"
        do throws(SDLTransportError) {
            core = try SDLTransportAddress(coreText)
        } catch {
            throw ValidationError("--core: \(error.detail)")
        }
        simulate = try flag(command.simulate, "SDL_GATEWAY_SIMULATE", "simulate")
        try SettingsValue.checkVariables(environment, prefix: "SDL_SIMULATOR_", known: SimulateCommand.variables)
        let simulatorSection = try file.object("simulator")
        if !simulate {
            if let option = command.simulator.given.first ?? command.simulatorListenOptionsGiven.first {
                throw ValidationError("\(option) is an option of the simulator: add --simulate (or use sdl-gateway simulate).")
            } else if simulatorSection != nil {
                throw ValidationError(
                    "config file: \"simulator\" sets the simulator's options, but the simulator is off: add \"simulate\": true or --simulate."
                )
            } else if let variable = SimulateCommand.variables.first(where: { environment[$0] != nil }) {
                // Silently ignoring it would leave a script believing the car it drives has that setting.
                throw ValidationError(
                    "\(variable) is a setting of the simulator, which is off: add --simulate (SDL_GATEWAY_SIMULATE=1), or unset it.")
            }
        }
        let resolved = try command.simulator.resolved(environment: environment, file: simulatorSection)
        if simulate {
            headUnit = resolved
            (simulatorListen, simulatorWebSocketListen) = try Self.simulatorListeners(
                command: command, environment: environment, file: simulatorSection)
            try Self.checkSimulateOnlyVariables(environment)
        }
        if let hmiText = try setting(command.hmi, "SDL_GATEWAY_HMI", "hmi") {
            do throws(SDLTransportError) {
                hmi = try SDLTransportAddress(hmiText)
            } catch {
                throw ValidationError("--hmi: \(error.detail)")
            }
            guard hmi?.scheme != .tcp else { throw ValidationError("--hmi is SDL Core's HMI WebSocket, ws:// or wss:// (got \(hmiText))") }
            guard !simulate else {
                throw ValidationError("--hmi drives a real SDL Core; the simulator (--simulate) has its own HMI: give one of them")
            }
        }
        let fileCores = try file.strings("allowedCores")
        let cores =
            !command.allowedCores.isEmpty
            ? command.allowedCores
            : environment["SDL_GATEWAY_ALLOW_CORES"].map { $0.split(separator: ",").map(String.init) }
                ?? fileCores ?? []
        for text in cores {
            do throws(SDLTransportError) {
                allowedCores.append(try SDLTransportAddress(text))
            } catch {
                throw ValidationError("--allow-core: \(error.detail)")
            }
        }
        let fromEnvironment = try SettingsValue.choice(environment, "SDL_GATEWAY_LOG_LEVEL", of: Logger.Level.self)
        let fromFile = try file.choice("logLevel", of: Logger.Level.self)
        logLevel = command.logLevel ?? fromEnvironment ?? fromFile ?? .info
        let formatFromEnvironment = try SettingsValue.choice(environment, "SDL_GATEWAY_LOG_FORMAT", of: LogFormat.self)
        let formatFromFile = try file.choice("logFormat", of: LogFormat.self)
        logFormat = command.logFormat ?? formatFromEnvironment ?? formatFromFile ?? .text
        if let spec = try setting(command.rpcSpec, "SDL_GATEWAY_RPC_SPEC", "rpcSpec") {
            catalog = try SDLCatalog(contentsOf: URL(fileURLWithPath: spec))
        } else {
            catalog = .builtIn
        }

        var configuration = GatewayConfiguration()
        let tokenArguments =
            !command.tokens.isEmpty ? command.tokens : (environment["SDL_GATEWAY_TOKENS"]?.split(separator: ",").map(String.init) ?? [])
        for argument in tokenArguments {
            let (token, scope) = try Self.token(argument)
            configuration.tokens[token] = scope
        }
        let tokens = try file.object("tokens") ?? [:]
        if tokenArguments.isEmpty {
            for (token, scope) in tokens {
                guard let scope = scope.stringValue.flatMap(TokenScope.init(rawValue:)) else {
                    throw ValidationError("config file: a token's scope in \"tokens\" must be \"read\" or \"control\".")
                }
                try Self.checkToken(token)
                configuration.tokens[token] = scope
            }
        }
        let fileOrigins = try file.strings("corsOrigins")
        let origins =
            !command.corsOrigins.isEmpty
            ? command.corsOrigins
            : environment["SDL_GATEWAY_CORS_ORIGINS"].map { $0.split(separator: ",").map(String.init) }
                ?? fileOrigins ?? []
        configuration.corsOrigins = Set(origins)
        configuration.publicDirectory = try setting(command.publicDirectory, "SDL_GATEWAY_PUBLIC", "public")
        if let limits = try file.object("limits") {
            let defaults = GatewayLimits()
            func int(_ key: String, _ value: Int, minimum: Int = 1) throws -> Int {
                try ServeConfigFile.int(limits, "limits", key, default: value, minimum: minimum)
            }
            configuration.limits = GatewayLimits(
                bodySize: try int("bodySize", defaults.bodySize),
                fileSize: try int("fileSize", defaults.fileSize),
                webSocketMessageSize: try int("webSocketMessageSize", defaults.webSocketMessageSize),
                requestsPerSecond: try int("requestsPerSecond", defaults.requestsPerSecond, minimum: 0),
                idleTimeout: .seconds(try int("idleTimeout", Int(defaults.idleTimeout.components.seconds))),
                authFailuresPerMinute: try int("authFailuresPerMinute", defaults.authFailuresPerMinute, minimum: 0),
                eventStreamKeepAlive: .seconds(try int("eventStreamKeepAlive", Int(defaults.eventStreamKeepAlive.components.seconds))),
                imageStoreSize: try int("imageStoreSize", defaults.imageStoreSize, minimum: 0),
                requestHeadTimeout: .seconds(try int("requestHeadTimeout", Int(defaults.requestHeadTimeout.components.seconds))),
                minimumBodyRate: try int("minimumBodyRate", defaults.minimumBodyRate, minimum: 0),
                bodyRateGrace: .seconds(try int("bodyRateGrace", Int(defaults.bodyRateGrace.components.seconds))),
                audioRecordingSize: try int("audioRecordingSize", defaults.audioRecordingSize, minimum: 0)
            )
        }
        if let rate = command.rateLimit ?? environment["SDL_GATEWAY_RATE_LIMIT"].map({ text -> Int in Int(text) ?? -1 }) {
            guard (0...1_000_000).contains(rate) else {
                throw ValidationError("--rate-limit (SDL_GATEWAY_RATE_LIMIT) takes requests per second from 0 (off) to 1000000")
            }
            configuration.limits.requestsPerSecond = rate
        }
        if let events = try file.object("events") {
            let defaults = EventHub.Limits()
            configuration.events = EventHub.Limits(
                ringCapacity: try ServeConfigFile.int(events, "events", "ringCapacity", default: defaults.ringCapacity),
                clientQueueCapacity: try ServeConfigFile.int(
                    events, "events", "clientQueueCapacity", default: defaults.clientQueueCapacity),
                maximumClients: try ServeConfigFile.int(events, "events", "maximumClients", default: defaults.maximumClients),
                ringBytes: try ServeConfigFile.int(events, "events", "ringBytes", default: defaults.ringBytes)
            )
        }
        for (index, app) in (try file.array("apps") ?? []).enumerated() {
            guard let members = app.objectValue else { throw ValidationError("config apps[\(index)] must be an object") }
            do {
                let request = try AppCreateBody(members)
                configuration.startupApps.append(.init(id: request.id, core: request.core, app: request.app))
            } catch {
                throw ValidationError("config apps[\(index)]: \(error.detail)")
            }
        }
        configuration.host = listen.host
        configuration.port = listen.port
        var recording: GatewayRecording?
        if let directory = try setting(command.record, "SDL_GATEWAY_RECORD", "record") {
            guard !directory.isEmpty else {
                throw ValidationError("--record (SDL_GATEWAY_RECORD, \"record\") takes a directory, not an empty string.")
            }
            do throws(GatewayRecording.SetupError) {
                try GatewayRecording.prepare(directory: directory)
            } catch {
                throw ValidationError(error.detail)
            }
            recording = GatewayRecording(directory: directory)
        }
        let requestLimit = try SettingsValue.wholeNumber(
            command.coreRequestLimit, flag: "--core-request-limit", variable: "SDL_GATEWAY_CORE_REQUEST_LIMIT", environment: environment,
            key: "coreRequestLimit", keyPath: "coreRequestLimit", file: file.members,
            unit: "requests", short: "requests per 10 s", default: headUnit?.requestLimit ?? 1000, in: 0...1_000_000
        )
        let heartbeat = try SettingsValue.wholeNumber(
            command.heartbeat, flag: "--heartbeat", variable: "SDL_GATEWAY_HEARTBEAT", environment: environment,
            key: "heartbeat", keyPath: "heartbeat", file: file.members,
            unit: "seconds", short: "seconds", default: Int(GatewayApps.Options.defaultHeartbeat.components.seconds), in: 0...3600
        )
        let maximumApps = try SettingsValue.wholeNumber(
            command.maxApps, flag: "--max-apps", variable: "SDL_GATEWAY_MAX_APPS", environment: environment,
            key: "maxApps", keyPath: "maxApps", file: file.members,
            unit: "apps", short: "apps", default: GatewayApps.Options.defaultMaximumApps, in: 1...100_000
        )
        configuration.sessions = GatewayApps.Options(
            defaultCore: core, catalog: catalog, allowedCores: allowedCores, recording: recording,
            rateLimits: Self.sessionLimits(coreRequestLimit: requestLimit), heartbeat: heartbeat == 0 ? nil : .seconds(heartbeat),
            maximumApps: maximumApps
        )
        self.configuration = configuration

        let insecure = try flag(command.insecure, "SDL_GATEWAY_INSECURE", "insecure")
        if configuration.tokens.isEmpty, !insecure, !Self.isLoopback(listen.host) {
            throw ValidationError("listening on \(listen.host) without a token exposes the head unit: give --token TOKEN (or --insecure)")
        }
        if configuration.tokens.isEmpty, !insecure, configuration.corsOrigins.contains("*") {
            throw ValidationError(
                "--cors-origin '*' without a token lets any website drive the head unit: give --token TOKEN, name the origins, or --insecure"
            )
        }
    }

    /// `TOKEN` (control) or `TOKEN:read` / `TOKEN:control`.
    /// The simulator's app listeners under `serve --simulate`: the command line, else
    /// `SDL_SIMULATOR_LISTEN` / `SDL_SIMULATOR_WS_LISTEN` (the variables of `simulate`, which mean
    /// the same there), else the file's `"simulator"` object (`listen`, `wsListen`).
    static func simulatorListeners(
        command: ServeCommand, environment: [String: String], file: [String: SDLJSON]?
    ) throws -> (tcp: HostPort, webSocket: HostPort?) {
        func fileString(_ key: String) throws -> String? {
            guard let value = file?[key] else { return nil }
            guard let text = value.stringValue else { throw ServeConfigFile.wrongType("simulator.\(key)", "a string", value) }
            return text
        }
        let tcpFromFile = try fileString("listen")
        let webSocketFromFile = try fileString("wsListen")
        let tcp = try (command.simulatorListen ?? environment["SDL_SIMULATOR_LISTEN"] ?? tcpFromFile).map {
            try HostPort($0, option: "--simulator-listen (SDL_SIMULATOR_LISTEN, \"simulator.listen\")", example: "127.0.0.1:12345")
        }
        let webSocket = try (command.simulatorWebSocketListen ?? environment["SDL_SIMULATOR_WS_LISTEN"] ?? webSocketFromFile).map {
            try HostPort($0, option: "--simulator-ws-listen (SDL_SIMULATOR_WS_LISTEN, \"simulator.wsListen\")", example: "127.0.0.1:2020")
        }
        return (tcp ?? .anyLoopbackPort, webSocket)
    }

    /// The variables of `sdl-gateway simulate` that `serve --simulate` has no use for: refused
    /// with what to use instead, rather than ignored.
    static func checkSimulateOnlyVariables(_ environment: [String: String]) throws {
        if environment["SDL_SIMULATOR_CONTROL"] != nil {
            throw ValidationError(
                "SDL_SIMULATOR_CONTROL is where sdl-gateway simulate's control API listens; under serve --simulate that API is /v1/simulator on the gateway's own address (SDL_GATEWAY_LISTEN): unset it."
            )
        }
        if environment["SDL_SIMULATOR_INSECURE"] != nil {
            throw ValidationError(
                "SDL_SIMULATOR_INSECURE lets sdl-gateway simulate's control API leave loopback; under serve --simulate the gateway's tokens guard it (SDL_GATEWAY_INSECURE is serve's): unset it."
            )
        }
        if try SettingsValue.bool(environment, "SDL_SIMULATOR_AUTO_ACTIVATE") == false {
            throw ValidationError(
                "SDL_SIMULATOR_AUTO_ACTIVATE is off, but serve --simulate always brings new apps to FULL: unset it, or use sdl-gateway simulate."
            )
        }
    }

    static func token(_ argument: String) throws -> (String, TokenScope) {
        var token = Substring(argument)
        var scope = TokenScope.control
        if let colon = argument.lastIndex(of: ":"), let named = TokenScope(rawValue: String(argument[argument.index(after: colon)...])) {
            token = argument[..<colon]
            scope = named
        }
        try checkToken(token)
        return (String(token), scope)
    }

    /// A token has at least 8 characters, each a letter, a digit or one of `-._~+!#$%&'*^`|`
    /// (RFC 9110 token characters without `,`): what a browser can offer as the WebSocket
    /// subprotocol `bearer.<token>` and an `Authorization` header can carry. `openssl rand -hex 32` makes one.
    static func checkToken(_ token: some StringProtocol) throws {
        let allowed = Set("-._~+!#$%&'*^`|")
        guard token.count >= 8, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || allowed.contains($0)) }) else {
            throw ValidationError("a token has at least 8 characters: letters, digits and -._~+!#$%&'*^`| (try: openssl rand -hex 32)")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        BrowserOriginRule.isLoopback(host: Substring(host))
    }
}

extension ServeSettings {
    /// What each app session of the gateway keeps to when SDL Core allows `coreRequestLimit`
    /// requests per 10 s (`AppTimeScaleMaxRequests`, docs/protocol.md §k): 90 % of it, at least 1,
    /// and no limit when Core has none; the limit in HMI NONE stays 90 % of Core's 100.
    static func sessionLimits(coreRequestLimit: Int) -> SDLRequestRateLimiter.Configuration {
        var limits = SDLRequestRateLimiter.Configuration.default
        let kept = coreRequestLimit == 0 ? 0 : max(1, coreRequestLimit * 9 / 10)
        limits.anyLevel = SDLRequestRateLimiter.Limit(maximumRequests: kept, window: .seconds(10))
        return limits
    }
}
