import ArgumentParser
import Foundation
import Gateway
import HeadUnitSimulator
import SDLClient
import SDLProtocol
import SDLSpec
import SDLTransport
import Testing

@testable import SDLGatewayCommand

@Suite("sdl-gateway serve settings: command line, environment, config file")
struct ServeSettingsTests {
    static func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(command: try ServeCommand.parse(arguments), environment: environment)
    }

    static func configFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sdl-gateway-\(UUID().uuidString).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test("Defaults: loopback 8080, Core's TCP port, no tokens, the built-in spec")
    func defaults() throws {
        let settings = try Self.settings([])
        #expect(settings.listen.host == "127.0.0.1" && settings.listen.port == 8080)
        #expect(settings.core == SDLTransportAddress.tcp(host: "127.0.0.1", port: 12345))
        #expect(settings.configuration.tokens.isEmpty)
        #expect(!settings.simulate)
        #expect(settings.catalog.version == "8.0.0")
    }

    @Test("The command line wins over the environment, which wins over the config file; the file declares limits and apps")
    func precedence() throws {
        let file = try Self.configFile(
            #"""
            {"listen": "127.0.0.1:9000", "core": "tcp://10.0.0.1:12345", "tokens": {"file-token-1": "read"},
             "corsOrigins": ["http://dash.example"], "limits": {"fileSize": 1000, "requestsPerSecond": 0, "idleTimeout": 5},
             "events": {"ringCapacity": 50}, "allowedCores": ["ws://127.0.0.1:2020"],
             "apps": [{"id": "radio", "appName": "Radio", "appID": "radio-1", "core": "ws://127.0.0.1:2020"}]}
            """#)
        let fromFile = try Self.settings(["--config", file])
        #expect(fromFile.listen.port == 9000)
        #expect(fromFile.core.host == "10.0.0.1")
        #expect(fromFile.configuration.tokens == ["file-token-1": .read])
        #expect(fromFile.configuration.corsOrigins == ["http://dash.example"])
        #expect(fromFile.configuration.limits.fileSize == 1000)
        #expect(fromFile.configuration.limits.requestsPerSecond == 0)
        #expect(fromFile.configuration.limits.idleTimeout == .seconds(5))
        #expect(fromFile.configuration.limits.bodySize == GatewayLimits.defaultBodySize)
        #expect(fromFile.configuration.events.ringCapacity == 50)
        #expect(fromFile.allowedCores == [try SDLTransportAddress("ws://127.0.0.1:2020")])
        #expect(fromFile.configuration.startupApps.map(\.id) == ["radio"])
        #expect(fromFile.configuration.startupApps.first?.core?.scheme == .ws)

        let environment = ["SDL_GATEWAY_LISTEN": "127.0.0.1:9100", "SDL_GATEWAY_TOKENS": "env-token-1:control,env-token-2:read"]
        let fromEnvironment = try Self.settings(["--config", file], environment: environment)
        #expect(fromEnvironment.listen.port == 9100)
        #expect(fromEnvironment.configuration.tokens == ["env-token-1": .control, "env-token-2": .read])

        let fromCommand = try Self.settings(
            ["--config", file, "--listen", "127.0.0.1:9200", "--token", "cli-token-1"], environment: environment)
        #expect(fromCommand.listen.port == 9200)
        #expect(fromCommand.configuration.tokens == ["cli-token-1": .control])
    }

    @Test("Refused: a non-loopback listener without a token, short tokens, bad URLs, a broken config file")
    func refusals() throws {
        #expect(throws: (any Error).self) { try Self.settings(["--listen", "0.0.0.0:8080"]) }
        #expect((try? Self.settings(["--listen", "0.0.0.0:8080", "--insecure"])) != nil)
        #expect((try? Self.settings(["--listen", "0.0.0.0:8080", "--token", "long-enough-token"])) != nil)
        // Any origin without a token: any website could drive the head unit.
        #expect(throws: (any Error).self) { try Self.settings(["--cors-origin", "*"]) }
        #expect((try? Self.settings(["--cors-origin", "*", "--token", "long-enough-token"])) != nil)
        #expect((try? Self.settings(["--cors-origin", "*", "--insecure"])) != nil)
        #expect((try? Self.settings(["--cors-origin", "http://localhost:3000"])) != nil)
        #expect(throws: (any Error).self) { try Self.settings(["--token", "short"]) }
        // A token must fit a WebSocket subprotocol (bearer.<token>): no '/', '=', spaces or commas.
        for bad in ["abc/def+ghi==", "has space in it", "comma,separated", "ünïcödé-token"] {
            #expect(throws: (any Error).self, "\(bad)") { try Self.settings(["--token", bad]) }
        }
        #expect((try? Self.settings(["--token", "0123456789abcdef_-.~"])) != nil)
        #expect(throws: (any Error).self) { try Self.settings(["--config", try Self.configFile(#"{"tokens": {"x/y": "read"}}"#)]) }
        #expect(throws: (any Error).self) { try Self.settings(["--core", "http://core:80"]) }
        #expect(throws: (any Error).self) { try Self.settings(["--config", try Self.configFile("{not json")]) }
        #expect(throws: (any Error).self) { try Self.settings(["--config", try Self.configFile(#"{"apps": [{"appName": "No id"}]}"#)]) }
    }

    /// The message that refuses these settings, nil when they are accepted.
    static func refusal(_ arguments: [String], environment: [String: String] = [:]) -> String? {
        do {
            _ = try settings(arguments, environment: environment)
            return nil
        } catch {
            return (error as? ValidationError)?.message ?? "\(error)"
        }
    }

    static func refusal(config text: String, environment: [String: String] = [:]) throws -> String? {
        Self.refusal(["--config", try configFile(text)], environment: environment)
    }

    @Test("A misspelt key in the config file is refused with the closest accepted one")
    func misspeltKey() throws {
        let message = try #require(try Self.refusal(config: #"{"limits": {"requestPerSecond": 10}}"#))
        #expect(message.contains("requestPerSecond") && message.contains("did you mean requestsPerSecond?"), "\(message)")
        #expect(message.contains("bodySize"), "lists the accepted keys: \(message)")
    }

    @Test("An unknown top-level key or events key is refused, naming it")
    func unknownKeys() throws {
        let message = try #require(try Self.refusal(config: #"{"listen": "127.0.0.1:9000", "simualte": true}"#))
        #expect(message.contains("\"simualte\"") && message.contains("did you mean simulate?"), "\(message)")
        let nothingClose = try #require(try Self.refusal(config: #"{"colour": "blue"}"#))
        #expect(nothingClose.contains("\"colour\"") && !nothingClose.contains("did you mean"), "\(nothingClose)")
        #expect(try Self.refusal(config: #"{"events": {"ringCapacty": 10}}"#)?.contains("did you mean ringCapacity?") == true)
    }

    @Test("Wrong JSON types are refused naming the key and the expected type; booleans must be JSON booleans")
    func wrongTypes() throws {
        let simulate = try #require(try Self.refusal(config: #"{"simulate": "yes"}"#))
        #expect(simulate.contains("\"simulate\"") && simulate.contains("boolean") && simulate.contains("string"), "\(simulate)")
        #expect(try Self.refusal(config: #"{"insecure": 1}"#)?.contains("\"insecure\" must be a boolean") == true)
        let limit = try #require(try Self.refusal(config: #"{"limits": {"bodySize": "1MiB"}}"#))
        #expect(limit.contains("limits.bodySize") && limit.contains("integer") && limit.contains("string"), "\(limit)")
        #expect(try Self.refusal(config: #"{"limits": 50}"#)?.contains("\"limits\" must be an object") == true)
        #expect(try Self.refusal(config: #"{"events": []}"#)?.contains("\"events\" must be an object") == true)
        #expect(try Self.refusal(config: #"{"listen": 8080}"#)?.contains("\"listen\" must be a string") == true)
        #expect(try Self.refusal(config: #"{"allowedCores": ["ws://127.0.0.1:2020", 2020]}"#)?.contains("array of strings") == true)
        #expect(try Self.refusal(config: #"{"corsOrigins": "http://dash.example"}"#)?.contains("array of strings") == true)
        #expect(try Self.refusal(config: #"{"tokens": ["file-token-1"]}"#)?.contains("\"tokens\" must be an object") == true)
        #expect(try Self.refusal(config: #"{"apps": {"id": "radio"}}"#)?.contains("\"apps\" must be an array") == true)
        let level = try #require(try Self.refusal(config: #"{"logLevel": "verbose"}"#))
        #expect(level.contains("logLevel") && level.contains("trace, debug, info"), "\(level)")
        // A wrong type is refused even where a higher source decides.
        #expect(Self.refusal(["--config", try Self.configFile(#"{"simulate": "on"}"#), "--simulate"]) != nil)
        #expect((try Self.settings(["--config", try Self.configFile(#"{"simulate": true, "insecure": false}"#)])).simulate)
    }

    @Test("Environment booleans: 1/0, true/false, yes/no, on/off in any case; anything else names the variable")
    func environmentBooleans() throws {
        for spelling in ["1", "true", "yes", "on", "YES", "On", "TRUE"] {
            #expect(try Self.settings([], environment: ["SDL_GATEWAY_SIMULATE": spelling]).simulate, "\(spelling)")
        }
        for spelling in ["0", "false", "no", "off", "No"] {
            #expect(try !Self.settings([], environment: ["SDL_GATEWAY_SIMULATE": spelling]).simulate, "\(spelling)")
        }
        let maybe = try #require(Self.refusal([], environment: ["SDL_GATEWAY_SIMULATE": "maybe"]))
        #expect(maybe.contains("SDL_GATEWAY_SIMULATE=maybe") && maybe.contains("yes/no"), "\(maybe)")
        #expect(Self.refusal([], environment: ["SDL_GATEWAY_INSECURE": "y"])?.contains("SDL_GATEWAY_INSECURE") == true)
        #expect((try? Self.settings(["--listen", "0.0.0.0:8080"], environment: ["SDL_GATEWAY_INSECURE": "on"])) != nil)
        // The environment wins over the file, both ways.
        let file = try Self.configFile(#"{"simulate": true}"#)
        #expect(try !Self.settings(["--config", file], environment: ["SDL_GATEWAY_SIMULATE": "off"]).simulate)
    }

    @Test("An unknown SDL_GATEWAY_ variable or log level is refused with the accepted ones")
    func environmentNamesAndLevels() throws {
        let misspelt = try #require(Self.refusal([], environment: ["SDL_GATEWAY_SIMULATED": "1"]))
        #expect(misspelt.contains("SDL_GATEWAY_SIMULATED") && misspelt.contains("did you mean SDL_GATEWAY_SIMULATE?"), "\(misspelt)")
        let level = try #require(Self.refusal([], environment: ["SDL_GATEWAY_LOG_LEVEL": "verbose"]))
        #expect(
            level.contains("SDL_GATEWAY_LOG_LEVEL=verbose") && level.contains("trace, debug, info, notice, warning, error, critical"),
            "\(level)")
        #expect("\(try Self.settings([], environment: ["SDL_GATEWAY_LOG_LEVEL": "DEBUG"]).logLevel)" == "debug")
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--log-level", "verbose"]) }
    }

    @Test("The log format: text by default, json from --log-format, SDL_GATEWAY_LOG_FORMAT or \"logFormat\"; others refused naming both")
    func logFormat() throws {
        #expect(try Self.settings([]).logFormat == .text)
        #expect(try Self.settings(["--log-format", "json"]).logFormat == .json)
        #expect(try Self.settings([], environment: ["SDL_GATEWAY_LOG_FORMAT": "JSON"]).logFormat == .json)
        let file = try Self.configFile(#"{"logFormat": "json"}"#)
        #expect(try Self.settings(["--config", file]).logFormat == .json)
        #expect(try Self.settings(["--config", file, "--log-format", "text"]).logFormat == .text)
        let variable = try #require(Self.refusal([], environment: ["SDL_GATEWAY_LOG_FORMAT": "jsonl"]))
        #expect(variable.contains("SDL_GATEWAY_LOG_FORMAT=jsonl") && variable.contains("text, json"), "\(variable)")
        let key = try #require(try Self.refusal(config: #"{"logFormat": "logfmt"}"#))
        #expect(key.contains("logFormat") && key.contains("text, json"), "\(key)")
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--log-format", "xml"]) }
    }

    @Test("simulate: SDL_SIMULATOR_ flags take the same boolean spellings, the policy open or default; mistakes are refused")
    func simulatorEnvironment() throws {
        var command = try SimulateCommand.parse([])
        let environment = ["SDL_SIMULATOR_AUTO_ACTIVATE": "yes", "SDL_SIMULATOR_INSECURE": "on", "SDL_SIMULATOR_POLICY": "default"]
        try command.readEnvironment(environment)
        let resolvedPolicy = try command.headUnit.resolved(environment: environment).policy
        #expect(command.autoActivate && command.insecure && resolvedPolicy == .default)
        var off = try SimulateCommand.parse([])
        try off.readEnvironment(["SDL_SIMULATOR_AUTO_ACTIVATE": "0", "SDL_SIMULATOR_INSECURE": "false"])
        let defaultPolicy = try off.headUnit.resolved(environment: [:]).policy
        #expect(!off.autoActivate && !off.insecure && defaultPolicy == .open)
        var maybe = try SimulateCommand.parse([])
        let activate = #expect(throws: ValidationError.self) { try maybe.readEnvironment(["SDL_SIMULATOR_AUTO_ACTIVATE": "maybe"]) }
        #expect(activate?.message.contains("SDL_SIMULATOR_AUTO_ACTIVATE=maybe") == true && activate?.message.contains("on/off") == true)
        let insecure = #expect(throws: ValidationError.self) { try maybe.readEnvironment(["SDL_SIMULATOR_INSECURE": "2"]) }
        #expect(insecure?.message.contains("SDL_SIMULATOR_INSECURE") == true)
        let policy = #expect(throws: ValidationError.self) { try maybe.readEnvironment(["SDL_SIMULATOR_POLICY": "closed"]) }
        #expect(policy?.message.contains("open, default") == true)
        let name = #expect(throws: ValidationError.self) { try maybe.readEnvironment(["SDL_SIMULATOR_AUTOACTIVATE": "1"]) }
        #expect(name?.message.contains("did you mean SDL_SIMULATOR_AUTO_ACTIVATE?") == true)
        #expect(throws: (any Error).self) { try SimulateCommand.parse(["--policy", "closed"]) }
    }

    @Test(
        "serve --simulate takes the simulator's options from the command line, SDL_SIMULATOR_* and the file's \"simulator\" object, in that order"
    )
    func simulatorOptions() throws {
        let given = try Self.settings([
            "--simulate", "--policy", "default", "--trace-speed", "2", "--time-scale", "0.1", "--profile", "p.json", "--trace", "t.json",
        ])
        #expect(given.headUnit == .init(policy: .default, trace: "t.json", traceSpeed: 2, profile: "p.json", timeScale: 0.1))
        let defaults = try Self.settings(["--simulate"])
        #expect(defaults.headUnit == .init(policy: .open, trace: nil, traceSpeed: 1, profile: nil, timeScale: 1))
        #expect(try Self.settings([]).headUnit == nil)
        let file = try Self.configFile(
            #"{"simulate": true, "simulator": {"policy": "default", "timeScale": 0.5, "traceSpeed": 4, "profile": "file.json"}}"#)
        let fromFile = try Self.settings(["--config", file])
        #expect(fromFile.headUnit == .init(policy: .default, trace: nil, traceSpeed: 4, profile: "file.json", timeScale: 0.5))
        let environment = ["SDL_SIMULATOR_POLICY": "open", "SDL_SIMULATOR_TIME_SCALE": "0.25", "SDL_SIMULATOR_PROFILE": "env.json"]
        let fromEnvironment = try Self.settings(["--config", file], environment: environment)
        #expect(fromEnvironment.headUnit == .init(policy: .open, trace: nil, traceSpeed: 4, profile: "env.json", timeScale: 0.25))
        let fromCommandLine = try Self.settings(["--config", file, "--time-scale", "2"], environment: environment)
        #expect(fromCommandLine.headUnit?.timeScale == 2)
        #expect(defaults.headUnit?.resumingTimeout == 3000)
        let resuming = try Self.configFile(#"{"simulate": true, "simulator": {"resumingTimeout": 1500}}"#)
        #expect(try Self.settings(["--config", resuming]).headUnit?.resumingTimeout == 1500)
        #expect(
            try Self.settings(["--config", resuming], environment: ["SDL_SIMULATOR_RESUMING_TIMEOUT": "0"]).headUnit?.resumingTimeout == 0)
        #expect(try Self.settings(["--config", resuming, "--resuming-timeout", "250"]).headUnit?.resumingTimeout == 250)
        #expect(defaults.headUnit?.requestLimit == 1000)
        #expect(try Self.settings(["--simulate", "--request-limit", "0"]).headUnit?.requestLimit == 0)
        #expect(try Self.settings(["--simulate"], environment: ["SDL_SIMULATOR_REQUEST_LIMIT": "5000"]).headUnit?.requestLimit == 5000)
    }

    @Test(
        "--file-storage-limit (MiB) from the command line, SDL_SIMULATOR_FILE_STORAGE_LIMIT or \"simulator.fileStorageLimit\" sets the head unit's file storage; 256 MiB by default; 0 is refused"
    )
    func fileStorageLimit() throws {
        func bytes(_ settings: ServeSettings) throws -> Int? {
            var configuration = HeadUnitConfiguration()
            try settings.headUnit?.apply(to: &configuration)
            return settings.headUnit == nil ? nil : configuration.fileStorageLimit
        }
        #expect(try bytes(Self.settings(["--simulate"])) == 256 * 1024 * 1024)
        #expect(try bytes(Self.settings(["--simulate", "--file-storage-limit", "1"])) == 1024 * 1024)
        #expect(try bytes(Self.settings(["--simulate"], environment: ["SDL_SIMULATOR_FILE_STORAGE_LIMIT": "512"])) == 512 * 1024 * 1024)
        let file = try Self.configFile(#"{"simulate": true, "simulator": {"fileStorageLimit": 64}}"#)
        #expect(try bytes(Self.settings(["--config", file])) == 64 * 1024 * 1024)
        #expect(
            Self.refusal(["--simulate", "--file-storage-limit", "0"])?.contains(
                "--file-storage-limit (SDL_SIMULATOR_FILE_STORAGE_LIMIT, \"simulator.fileStorageLimit\") must be 1…1048576 MiB") == true)
        #expect(
            Self.refusal(["--file-storage-limit", "8"])?.contains("--file-storage-limit is an option of the simulator: add --simulate")
                == true)
        #expect(try SimulateCommand.parse(["--file-storage-limit", "8"]).headUnit.resolved(environment: [:]).fileStorageLimit == 8)
    }

    @Test(
        "--stream-keep (MiB) from the command line, SDL_SIMULATOR_STREAM_KEEP or \"simulator.streamKeep\" sets the stream bytes the head unit keeps; 8 MiB by default"
    )
    func streamKeep() throws {
        func bytes(_ settings: ServeSettings) throws -> Int? {
            var configuration = HeadUnitConfiguration()
            try settings.headUnit?.apply(to: &configuration)
            return settings.headUnit == nil ? nil : configuration.streamKeptBytes
        }
        #expect(try bytes(Self.settings(["--simulate"])) == 8 * 1024 * 1024)
        #expect(try bytes(Self.settings(["--simulate", "--stream-keep", "0"])) == 0)
        #expect(try bytes(Self.settings(["--simulate"], environment: ["SDL_SIMULATOR_STREAM_KEEP": "64"])) == 64 * 1024 * 1024)
        let file = try Self.configFile(#"{"simulate": true, "simulator": {"streamKeep": 2}}"#)
        #expect(try bytes(Self.settings(["--config", file])) == 2 * 1024 * 1024)
        #expect(
            Self.refusal(["--simulate", "--stream-keep", "5000"])?.contains(
                "--stream-keep (SDL_SIMULATOR_STREAM_KEEP, \"simulator.streamKeep\") must be 0…4096 MiB") == true)
        #expect(try SimulateCommand.parse(["--stream-keep", "1"]).headUnit.resolved(environment: [:]).streamKeep == 1)
    }

    @Test(
        "--core-request-limit: the gateway's sessions keep to 90 % of Core's AppTimeScaleMaxRequests; 0 lifts it; --simulate --request-limit sets it"
    )
    func coreRequestLimit() throws {
        func kept(_ settings: ServeSettings) -> Int { settings.configuration.sessions.rateLimits.anyLevel.maximumRequests }
        #expect(kept(try Self.settings([])) == 900)
        #expect(kept(try Self.settings(["--core-request-limit", "2000"])) == 1800)
        #expect(kept(try Self.settings(["--core-request-limit", "1"])) == 1)
        #expect(kept(try Self.settings(["--core-request-limit", "0"])) == 0)
        #expect(kept(try Self.settings([], environment: ["SDL_GATEWAY_CORE_REQUEST_LIMIT": "100"])) == 90)
        #expect(kept(try Self.settings(["--config", try Self.configFile(#"{"coreRequestLimit": 500}"#)])) == 450)
        #expect(kept(try Self.settings(["--simulate", "--request-limit", "0"])) == 0)
        #expect(kept(try Self.settings(["--simulate", "--request-limit", "0", "--core-request-limit", "1000"])) == 900)
        #expect(throws: ValidationError.self) { try Self.settings(["--core-request-limit", "1000001"]) }
        #expect(throws: ValidationError.self) { try Self.settings([], environment: ["SDL_GATEWAY_CORE_REQUEST_LIMIT": "many"]) }
    }

    @Test("--heartbeat: the gateway's Heartbeats on v3–v5 every 5 s by default; 0 leaves them to v3 as the app libraries do")
    func heartbeat() throws {
        func interval(_ settings: ServeSettings) -> Duration? { settings.configuration.sessions.heartbeat }
        #expect(interval(try Self.settings([])) == .seconds(5))
        #expect(interval(try Self.settings(["--heartbeat", "2"])) == .seconds(2))
        #expect(interval(try Self.settings(["--heartbeat", "0"])) == nil)
        #expect(interval(try Self.settings([], environment: ["SDL_GATEWAY_HEARTBEAT": "7"])) == .seconds(7))
        #expect(interval(try Self.settings(["--config", try Self.configFile(#"{"heartbeat": 0}"#)])) == nil)
        #expect(throws: ValidationError.self) { try Self.settings(["--heartbeat=-1"]) }
        #expect(throws: ValidationError.self) { try Self.settings([], environment: ["SDL_GATEWAY_HEARTBEAT": "soon"]) }
        #expect(throws: ValidationError.self) { try Self.settings(["--config", try Self.configFile(#"{"heartbeat": "5"}"#)]) }
    }

    @Test("--hmi (SDL_GATEWAY_HMI, \"hmi\") takes Core's HMI WebSocket; a TCP address or --simulate beside it is refused")
    func hmiSetting() throws {
        #expect(try Self.settings([]).hmi == nil)
        #expect(try Self.settings(["--hmi", "ws://core:8087"]).hmi?.description == "ws://core:8087/")
        #expect(try Self.settings([], environment: ["SDL_GATEWAY_HMI": "ws://127.0.0.1:8087"]).hmi?.port == 8087)
        #expect(try Self.settings(["--config", try Self.configFile(#"{"hmi": "ws://core:9000"}"#)]).hmi?.port == 9000)
        #expect(throws: ValidationError.self) { try Self.settings(["--hmi", "tcp://core:8087"]) }
        #expect(throws: ValidationError.self) { try Self.settings(["--hmi", "ws://core:8087", "--simulate"]) }
    }

    @Test("Simulator options are refused without the simulator, out of range, misspelt or of the wrong type, naming them")
    func simulatorOptionMistakes() throws {
        #expect(Self.refusal(["--policy", "default"])?.contains("--policy is an option of the simulator: add --simulate") == true)
        #expect(
            Self.refusal(["--config", try Self.configFile(#"{"simulator": {"timeScale": 2}}"#)])?.contains("the simulator is off") == true)
        #expect(Self.refusal(["--simulate", "--time-scale", "0"])?.contains("--time-scale") == true)
        #expect(Self.refusal(["--simulate", "--resuming-timeout", "60001"])?.contains("must be 0…60000 ms") == true)
        #expect(
            Self.refusal(["--simulate", "--request-limit", "1000001"])?.contains(
                "--request-limit (SDL_SIMULATOR_REQUEST_LIMIT, \"simulator.requestLimit\") must be 0…1000000 requests per 10 s") == true)
        #expect(
            Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_RESUMING_TIMEOUT": "3s"])?.contains(
                "not a whole number of milliseconds") == true)
        #expect(
            Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_TRACE_SPEED": "fast"])?.contains(
                "SDL_SIMULATOR_TRACE_SPEED=fast is not a number") == true)
        #expect(
            Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_TIMESCALE": "2"])?.contains("did you mean SDL_SIMULATOR_TIME_SCALE?")
                == true)
        #expect(Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_POLICY": "closed"])?.contains("open, default") == true)
        let misspelt = Self.refusal(["--config", try Self.configFile(#"{"simulate": true, "simulator": {"timescale": 2}}"#)])
        #expect(
            misspelt?.contains("\"simulator.timescale\"") == true && misspelt?.contains("did you mean timeScale?") == true,
            "\(misspelt ?? "")")
        let wrongType = Self.refusal(["--config", try Self.configFile(#"{"simulate": true, "simulator": {"timeScale": "fast"}}"#)])
        #expect(wrongType?.contains("\"simulator.timeScale\" must be a number") == true, "\(wrongType ?? "")")
        let policy = Self.refusal(["--config", try Self.configFile(#"{"simulate": true, "simulator": {"policy": "defualt"}}"#)])
        #expect(policy?.contains("did you mean default?") == true, "\(policy ?? "")")
    }

    @Test(
        "SDL_SIMULATOR_* without --simulate stops start-up; with it, LISTEN and WS_LISTEN place the head unit and simulate's control variables are refused"
    )
    func simulatorVariables() throws {
        for variable in SimulateCommand.variables {
            let message = Self.refusal([], environment: [variable: "1"])
            #expect(
                message?.contains("\(variable) is a setting of the simulator, which is off: add --simulate") == true,
                "\(message ?? "accepted")")
        }
        #expect(
            Self.refusal(["--simulator-listen", "127.0.0.1:5555"])?.contains(
                "--simulator-listen is an option of the simulator: add --simulate") == true)

        #expect(try Self.settings(["--simulate"]).simulatorListen == HostPort(host: "127.0.0.1", port: 0))
        #expect(try Self.settings(["--simulate"]).simulatorWebSocketListen == nil)
        let environment = ["SDL_SIMULATOR_LISTEN": "127.0.0.1:5555", "SDL_SIMULATOR_WS_LISTEN": "0.0.0.0:2020"]
        let fromEnvironment = try Self.settings(["--simulate"], environment: environment)
        #expect(fromEnvironment.simulatorListen == HostPort(host: "127.0.0.1", port: 5555))
        #expect(fromEnvironment.simulatorWebSocketListen == HostPort(host: "0.0.0.0", port: 2020))
        let file = try Self.configFile(#"{"simulate": true, "simulator": {"listen": "127.0.0.1:6000", "wsListen": "127.0.0.1:6001"}}"#)
        #expect(try Self.settings(["--config", file]).simulatorListen.port == 6000)
        #expect(try Self.settings(["--config", file]).simulatorWebSocketListen?.port == 6001)
        #expect(try Self.settings(["--config", file], environment: environment).simulatorListen.port == 5555)
        #expect(
            try Self.settings(["--config", file, "--simulator-listen", "127.0.0.1:7000"], environment: environment).simulatorListen.port
                == 7000)
        #expect(Self.refusal(["--simulate", "--simulator-listen", "5555"])?.contains("e.g. 127.0.0.1:12345 (got 5555)") == true)
        #expect(
            Self.refusal(["--config", try Self.configFile(#"{"simulate": true, "simulator": {"listen": 5555}}"#)])?.contains(
                "\"simulator.listen\" must be a string") == true)

        #expect(
            Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_CONTROL": "127.0.0.1:12346"])?.contains(
                "/v1/simulator on the gateway's own address") == true)
        #expect(Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_INSECURE": "1"])?.contains("SDL_GATEWAY_INSECURE") == true)
        #expect(
            Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_AUTO_ACTIVATE": "0"])?.contains("always brings new apps to FULL")
                == true)
        #expect(Self.refusal(["--simulate"], environment: ["SDL_SIMULATOR_AUTO_ACTIVATE": "1"]) == nil)
        #expect(Self.refusal(["--listen", "8080"])?.contains("--listen must be host:port, e.g. 127.0.0.1:8080 (got 8080)") == true)
    }

    @Test("simulate: the control API, which has no tokens, listens beyond loopback only with --insecure")
    func simulatorControlStaysOnLoopback() throws {
        #expect(throws: (any Error).self) { try SimulateCommand.parse(["--control", "0.0.0.0:12346"]) }
        #expect((try? SimulateCommand.parse(["--control", "0.0.0.0:12346", "--insecure"])) != nil)
        #expect((try? SimulateCommand.parse(["--control", "127.0.0.1:0"])) != nil)
    }
}

@Suite("serve --rate-limit")
struct RateLimitSettingTests {
    @Test("--rate-limit and SDL_GATEWAY_RATE_LIMIT set limits.requestsPerSecond (0 turns it off); nonsense is refused")
    func rateLimit() throws {
        #expect(try ServeSettingsTests.settings([]).configuration.limits.requestsPerSecond == 1000)
        #expect(try ServeSettingsTests.settings(["--rate-limit", "0"]).configuration.limits.requestsPerSecond == 0)
        #expect(
            try ServeSettingsTests.settings([], environment: ["SDL_GATEWAY_RATE_LIMIT": "25"]).configuration.limits.requestsPerSecond == 25)
        #expect(
            try ServeSettingsTests.settings(["--rate-limit", "7"], environment: ["SDL_GATEWAY_RATE_LIMIT": "25"]).configuration.limits
                .requestsPerSecond == 7)
        #expect(throws: (any Error).self) { try ServeSettingsTests.settings([], environment: ["SDL_GATEWAY_RATE_LIMIT": "fast"]) }
        #expect(throws: (any Error).self) { try ServeSettingsTests.settings(["--rate-limit", "-1"]) }
    }
}

@Suite("serve --record")
struct RecordSettingTests {
    @Test("--record, SDL_GATEWAY_RECORD and the file's \"record\" set the directory (created when missing), in that order; off by default")
    func record() throws {
        #expect(try ServeSettingsTests.settings([]).configuration.sessions.recording == nil)
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("sdl-record-settings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let (option, variable, file) = (
            base.appendingPathComponent("option").path, base.appendingPathComponent("variable").path,
            base.appendingPathComponent("file").path
        )
        let config = try ServeSettingsTests.configFile(#"{"record": "\#(file)"}"#)
        #expect(try ServeSettingsTests.settings(["--config", config]).configuration.sessions.recording?.directory == file)
        #expect(
            try ServeSettingsTests.settings(["--config", config], environment: ["SDL_GATEWAY_RECORD": variable]).configuration.sessions
                .recording?.directory == variable)
        #expect(
            try ServeSettingsTests.settings(["--config", config, "--record", option], environment: ["SDL_GATEWAY_RECORD": variable])
                .configuration.sessions.recording?.directory == option)
        for directory in [option, variable, file] {
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue,
                "\(directory) was created")
        }
        #expect(throws: (any Error).self) { try ServeSettingsTests.settings(["--record", ""]) }
        #expect(throws: (any Error).self) {
            try ServeSettingsTests.settings(["--config", try ServeSettingsTests.configFile(#"{"record": true}"#)])
        }
        #expect(throws: (any Error).self) { try ServeSettingsTests.settings([], environment: ["SDL_GATEWAY_RECORDS": "x"]) }
    }
}
