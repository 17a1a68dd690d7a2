import ArgumentParser
import Foundation
import Gateway
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
        let file = try Self.configFile(#"""
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

        let fromCommand = try Self.settings(["--config", file, "--listen", "127.0.0.1:9200", "--token", "cli-token-1"], environment: environment)
        #expect(fromCommand.listen.port == 9200)
        #expect(fromCommand.configuration.tokens == ["cli-token-1": .control])
    }

    @Test("Refused: a non-loopback listener without a token, short tokens, bad URLs, a broken config file")
    func refusals() throws {
        #expect(throws: (any Error).self) { try Self.settings(["--listen", "0.0.0.0:8080"]) }
        #expect((try? Self.settings(["--listen", "0.0.0.0:8080", "--insecure"])) != nil)
        #expect((try? Self.settings(["--listen", "0.0.0.0:8080", "--token", "long-enough-token"])) != nil)
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
        #expect(try ServeSettingsTests.settings([], environment: ["SDL_GATEWAY_RATE_LIMIT": "25"]).configuration.limits.requestsPerSecond == 25)
        #expect(try ServeSettingsTests.settings(["--rate-limit", "7"], environment: ["SDL_GATEWAY_RATE_LIMIT": "25"]).configuration.limits.requestsPerSecond == 7)
        #expect(throws: (any Error).self) { try ServeSettingsTests.settings([], environment: ["SDL_GATEWAY_RATE_LIMIT": "fast"]) }
        #expect(throws: (any Error).self) { try ServeSettingsTests.settings(["--rate-limit", "-1"]) }
    }
}
