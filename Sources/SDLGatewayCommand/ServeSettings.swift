import ArgumentParser
import Foundation
import Gateway
import Logging
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
///  "rpcSpec": "MOBILE_API.xml", "public": "public", "logLevel": "info", "insecure": false,
///  "limits": {"bodySize": 1048576, "fileSize": 67108864, "webSocketMessageSize": 1048576, "requestsPerSecond": 1000, "idleTimeout": 60,
///             "authFailuresPerMinute": 20, "eventStreamKeepAlive": 15},
///  "events": {"ringCapacity": 10000, "clientQueueCapacity": 1000, "maximumClients": 100},
///  "apps": [{"id": "radio", "appName": "Radio", "appID": "radio-1"}]}
/// ```
struct ServeSettings {
    var listen: HostPort
    var core: SDLTransportAddress
    var allowedCores: [SDLTransportAddress] = []
    var simulate: Bool
    var logLevel: Logger.Level
    var catalog: SDLCatalog
    var configuration: GatewayConfiguration

    init(command: ServeCommand, environment: [String: String]) throws {
        let file = try (command.config ?? environment["SDL_GATEWAY_CONFIG"]).map(Self.readConfig) ?? [:]
        func setting(_ option: String?, _ variable: String, _ key: String) -> String? {
            option ?? environment[variable] ?? file[key]?.stringValue
        }
        func flag(_ option: Bool, _ variable: String, _ key: String) -> Bool {
            option || environment[variable] == "1" || environment[variable] == "true" || file[key]?.boolValue == true
        }
        listen = try HostPort(setting(command.listen, "SDL_GATEWAY_LISTEN", "listen") ?? "127.0.0.1:8080", option: "--listen")
        do throws(SDLTransportError) {
            core = try SDLTransportAddress(setting(command.core, "SDL_GATEWAY_CORE", "core") ?? "tcp://127.0.0.1:12345")
        } catch {
            throw ValidationError("--core: \(error.detail)")
        }
        simulate = flag(command.simulate, "SDL_GATEWAY_SIMULATE", "simulate")
        let cores = !command.allowedCores.isEmpty ? command.allowedCores
            : environment["SDL_GATEWAY_ALLOW_CORES"].map { $0.split(separator: ",").map(String.init) }
            ?? (file["allowedCores"]?.arrayValue ?? []).compactMap(\.stringValue)
        for text in cores {
            do throws(SDLTransportError) {
                allowedCores.append(try SDLTransportAddress(text))
            } catch {
                throw ValidationError("--allow-core: \(error.detail)")
            }
        }
        let level = command.logLevel?.rawValue ?? environment["SDL_GATEWAY_LOG_LEVEL"] ?? file["logLevel"]?.stringValue ?? "info"
        guard let logLevel = Logger.Level(rawValue: level) else { throw ValidationError("log level \(level) is not one of trace … critical") }
        self.logLevel = logLevel
        if let spec = setting(command.rpcSpec, "SDL_GATEWAY_RPC_SPEC", "rpcSpec") {
            catalog = try SDLCatalog(contentsOf: URL(fileURLWithPath: spec))
        } else {
            catalog = .builtIn
        }

        var configuration = GatewayConfiguration()
        let tokenArguments = !command.tokens.isEmpty ? command.tokens : (environment["SDL_GATEWAY_TOKENS"]?.split(separator: ",").map(String.init) ?? [])
        for argument in tokenArguments {
            let (token, scope) = try Self.token(argument)
            configuration.tokens[token] = scope
        }
        if tokenArguments.isEmpty, let tokens = file["tokens"]?.objectValue {
            for (token, scope) in tokens {
                guard let scope = scope.stringValue.flatMap(TokenScope.init(rawValue:)) else { throw ValidationError("config tokens: scope must be read or control") }
                try Self.checkToken(token)
                configuration.tokens[token] = scope
            }
        }
        let origins = !command.corsOrigins.isEmpty ? command.corsOrigins
            : environment["SDL_GATEWAY_CORS_ORIGINS"].map { $0.split(separator: ",").map(String.init) }
            ?? (file["corsOrigins"]?.arrayValue ?? []).compactMap(\.stringValue)
        configuration.corsOrigins = Set(origins)
        configuration.publicDirectory = setting(command.publicDirectory, "SDL_GATEWAY_PUBLIC", "public")
        if let limits = file["limits"] {
            let defaults = GatewayLimits()
            configuration.limits = GatewayLimits(
                bodySize: try Self.int(limits, "bodySize", default: defaults.bodySize),
                fileSize: try Self.int(limits, "fileSize", default: defaults.fileSize),
                webSocketMessageSize: try Self.int(limits, "webSocketMessageSize", default: defaults.webSocketMessageSize),
                requestsPerSecond: try Self.int(limits, "requestsPerSecond", default: defaults.requestsPerSecond, minimum: 0),
                idleTimeout: .seconds(try Self.int(limits, "idleTimeout", default: Int(defaults.idleTimeout.components.seconds))),
                authFailuresPerMinute: try Self.int(limits, "authFailuresPerMinute", default: defaults.authFailuresPerMinute, minimum: 0),
                eventStreamKeepAlive: .seconds(try Self.int(limits, "eventStreamKeepAlive", default: Int(defaults.eventStreamKeepAlive.components.seconds)))
            )
        }
        if let rate = command.rateLimit ?? environment["SDL_GATEWAY_RATE_LIMIT"].map({ text -> Int in Int(text) ?? -1 }) {
            guard (0...1_000_000).contains(rate) else {
                throw ValidationError("--rate-limit (SDL_GATEWAY_RATE_LIMIT) takes requests per second from 0 (off) to 1000000")
            }
            configuration.limits.requestsPerSecond = rate
        }
        if let events = file["events"] {
            let defaults = EventHub.Limits()
            configuration.events = EventHub.Limits(
                ringCapacity: try Self.int(events, "ringCapacity", default: defaults.ringCapacity),
                clientQueueCapacity: try Self.int(events, "clientQueueCapacity", default: defaults.clientQueueCapacity),
                maximumClients: try Self.int(events, "maximumClients", default: defaults.maximumClients)
            )
        }
        for (index, app) in (file["apps"]?.arrayValue ?? []).enumerated() {
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
        configuration.sessions = GatewayApps.Options(defaultCore: core, catalog: catalog, allowedCores: allowedCores)
        self.configuration = configuration

        let insecure = flag(command.insecure, "SDL_GATEWAY_INSECURE", "insecure")
        if configuration.tokens.isEmpty, !insecure, !Self.isLoopback(listen.host) {
            throw ValidationError("listening on \(listen.host) without a token exposes the head unit: give --token TOKEN (or --insecure)")
        }
    }

    static func readConfig(_ path: String) throws -> [String: SDLJSON] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read the config file \(path): \(error.localizedDescription)")
        }
        guard data.count <= 1 << 20, let object = (try? SDLJSON.parse([UInt8](data)))?.objectValue else {
            throw ValidationError("the config file \(path) is not a JSON object (of at most 1 MiB)")
        }
        return object
    }

    /// `TOKEN` (control) or `TOKEN:read` / `TOKEN:control`.
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

    static func int(_ object: SDLJSON, _ key: String, default value: Int, minimum: Int = 1) throws -> Int {
        guard let member = object[key] else { return value }
        guard let number = member.intValue, number >= minimum, number <= Int64(Int32.max) else {
            throw ValidationError("config \(key) must be an integer of at least \(minimum)")
        }
        return Int(number)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}
