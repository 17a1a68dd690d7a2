import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import SDLProtocol
import Testing

/// `sdl-gateway call`, `events` and `apps`, the real executable against the real executable
/// `serve --simulate` on port 0, with and without tokens.
@Suite("sdl-gateway call, events and apps end to end", .timeLimit(.minutes(2)))
struct CommandLineClientEndToEndTests {
    typealias Server = ServeEndToEndTests.Server

    /// Runs the client with only `environment` (the test's own SDL_GATEWAY_* never leak in).
    static func run(
        _ arguments: [String], _ environment: [String: String] = [:]
    ) async throws -> (status: Int32, errors: String, output: String) {
        try await ServeEndToEndTests.runToExit(arguments, environment: environment)
    }

    /// Each line of `text` as JSON.
    static func lines(_ text: String) throws -> [SDLJSON] {
        try text.split(separator: "\n").map { try SDLJSON.parse(String($0)) }
    }

    @Test(
        "apps create/list/delete, call with key=value parameters, events as JSON lines (replayed, filtered, live); refusals exit 1 with the problem"
    )
    func withoutTokens() async throws {
        try ServeEndToEndTests.requireExecutable()
        let server = try await Server.start()
        defer { if server.process.isRunning { server.process.terminate() } }
        let gateway = ["SDL_GATEWAY_URL": server.baseURL]

        let created = try await Self.run(["apps", "create", "Demo", "demo-app", "--id", "demo", "isMediaApplication=true"], gateway)
        #expect(created.status == 0, "\(created.errors)")
        let app = try SDLJSON.parse(created.output)
        #expect(app["id"] == "demo" && app["connection"] == "registered")
        #expect(created.output.split(separator: "\n").count == 1, "not a terminal: one line")

        let listed = try await Self.run(["apps", "--gateway", server.baseURL])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.contains(#""id":"demo""#), "\(listed.output)")

        let shown = try await Self.run(["call", "demo", "Show", "mainField1=Hello from the shell"], gateway)
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(try SDLJSON.parse(shown.output)["resultCode"] == "SUCCESS")
        let screen = try await ServeEndToEndTests.send(.GET, "\(server.baseURL)/v1/simulator/apps/demo-app/screen")
        #expect(screen.body?["show"]?["mainField1"] == "Hello from the shell")
        // mainField2 is a string in the spec: "42" became the number 42, which the gateway refuses
        // before the head unit sees it, naming the parameter.
        let typed = try await Self.run(["call", "demo", "Show", "mainField2=42"], gateway)
        #expect(typed.status == 1)
        #expect(typed.errors.contains("HTTP 422 invalid-parameters"), "\(typed.errors)")
        #expect(typed.errors.contains("mainField2"), "\(typed.errors)")
        let quoted = try await Self.run(
            ["call", "demo", "Show", #"mainField2:="42""#, "--json", #"{"mainField1":"From --json"}"#], gateway)
        #expect(quoted.status == 0, "\(quoted.errors)")
        #expect(
            try await ServeEndToEndTests.send(.GET, "\(server.baseURL)/v1/simulator/apps/demo-app/screen").body?["show"]?["mainField2"]
                == "42")

        let added = try await Self.run(
            [
                "call", "demo", "AddCommand", "cmdID=7", "menuParams.menuName=Play", #"vrCommands:=["Play","Start"]"#, "--rpc-timeout",
                "5000",
            ], gateway)
        #expect(added.status == 0, "\(added.errors)")
        let misspelt = try await Self.run(["call", "demo", "Show", "mainFeild1=x"], gateway)
        #expect(misspelt.status == 1)
        #expect(misspelt.errors.contains("did you mean mainField1?"), "\(misspelt.errors)")
        #expect(misspelt.output.isEmpty)
        let unknown = try await Self.run(["call", "nobody", "Show"], gateway)
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("HTTP 404 app-not-found"), "\(unknown.errors)")
        let conflicting = try await Self.run(["call", "demo", "Show", "a=1", "a.b=2"], gateway)
        #expect(conflicting.status == 64)
        #expect(conflicting.errors.contains("'a' and 'a.b' conflict"), "\(conflicting.errors)")
        let badJSON = try await Self.run(["call", "demo", "Show", "a:=[1,"], gateway)
        #expect(badJSON.status == 64)
        #expect(badJSON.errors.contains("'a:=' is not valid JSON"), "\(badJSON.errors)")

        // Replayed: the app's first events, in order.
        let replayed = try await Self.run(["events", "demo", "--since", "0", "--count", "3"], gateway)
        #expect(replayed.status == 0, "\(replayed.errors)")
        let events = try Self.lines(replayed.output)
        #expect(events.map { $0["seq"] } == [1, 2, 3])
        #expect(events.allSatisfy { $0["app"] == "demo" })
        #expect(events.first?["type"] == "connection")
        // connection events always pass the type filter (README "Events").
        let filtered = try await Self.run(["events", "demo", "--since", "0", "--types", "hmiStatus", "--count", "3"], gateway)
        let types = try Self.lines(filtered.output).compactMap { $0["type"]?.stringValue }
        #expect(types.count == 3 && types.contains("hmiStatus"), "\(types)")
        #expect(types.allSatisfy { ["hmiStatus", "connection"].contains($0) }, "\(types)")
        // Live: the simulator's drive sends speed at 10 Hz once subscribed.
        let subscribed = try await Self.run(["call", "demo", "SubscribeVehicleData", "speed=true"], gateway)
        #expect(subscribed.status == 0, "\(subscribed.errors)")
        let live = try await Self.run(["events", "demo", "--types", "vehicleData", "--names", "speed", "--count", "3"], gateway)
        #expect(live.status == 0, "\(live.errors)")
        let readings = try Self.lines(live.output)
        #expect(readings.count == 3)
        #expect(readings.allSatisfy { $0["type"] == "vehicleData" && $0["data"]?["speed"] != nil })

        let deleted = try await Self.run(["apps", "delete", "demo"], gateway)
        #expect(deleted.status == 0, "\(deleted.errors)")
        let gone = try await Self.run(["events", "demo", "--count", "1"], gateway)
        #expect(gone.status == 1)
        #expect(gone.errors.contains("HTTP 404"), "\(gone.errors)")
    }

    @Test(
        "With tokens: none → exit 1 naming 401, a wrong one → 1, a read token cannot call (403), the right ones → 0 (--token or SDL_GATEWAY_TOKEN)"
    )
    func withTokens() async throws {
        try ServeEndToEndTests.requireExecutable()
        let server = try await Server.start(["--token", "readtoken1:read", "--token", "ctltoken1:control"])
        defer { if server.process.isRunning { server.process.terminate() } }
        let gateway = ["SDL_GATEWAY_URL": server.baseURL]
        let control = gateway.merging(["SDL_GATEWAY_TOKEN": "ctltoken1"]) { $1 }

        let anonymous = try await Self.run(["apps"], gateway)
        #expect(anonymous.status == 1)
        #expect(anonymous.errors.contains("HTTP 401"), "\(anonymous.errors)")
        let wrong = try await Self.run(["apps", "--token", "wrongtoken1"], gateway)
        #expect(wrong.status == 1)
        #expect(wrong.errors.contains("HTTP 401"), "\(wrong.errors)")
        let created = try await Self.run(["apps", "create", "Secure", "s-app", "--id", "s", "--token", "ctltoken1"], gateway)
        #expect(created.status == 0, "\(created.errors)")

        let readOnly = try await Self.run(["call", "s", "Show", "mainField1=x", "--token", "readtoken1"], gateway)
        #expect(readOnly.status == 1)
        #expect(readOnly.errors.contains("HTTP 403"), "\(readOnly.errors)")
        let called = try await Self.run(["call", "s", "Show", "mainField1=x"], control)
        #expect(called.status == 0, "\(called.errors)")

        let unseen = try await Self.run(["events", "s", "--since", "0", "--count", "1"], gateway)
        #expect(unseen.status == 1)
        #expect(unseen.errors.contains("HTTP 401"), "\(unseen.errors)")
        let wrongEvents = try await Self.run(["events", "s", "--since", "0", "--count", "1", "--token", "wrongtoken1"], gateway)
        #expect(wrongEvents.status == 1)
        let seen = try await Self.run(["events", "s", "--since", "0", "--count", "1", "--token", "readtoken1"], gateway)
        #expect(seen.status == 0, "\(seen.errors)")
        #expect(try Self.lines(seen.output).first?["seq"] == 1)
    }

    @Test("A silent gateway, an https URL: exit 1 (or the usage error), never a hang")
    func unreachable() async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        defer { channel.close(promise: nil) }
        let port = try #require(channel.localAddress?.port)
        let started = ContinuousClock.now
        let silent = try await Self.run(["apps", "--gateway", "http://127.0.0.1:\(port)", "--timeout", "0.5"])
        #expect(silent.status == 1)
        #expect(silent.errors.contains("no answer from http://127.0.0.1:\(port) within 0.5 s"), "\(silent.errors)")
        let silentEvents = try await Self.run(["events", "x", "--gateway", "http://127.0.0.1:\(port)", "--timeout", "0.5"])
        #expect(silentEvents.status == 1)
        #expect(silentEvents.errors.contains("no answer"), "\(silentEvents.errors)")
        #expect(ContinuousClock.now - started < .seconds(20))

        let https = try await Self.run(["apps", "--gateway", "https://127.0.0.1:\(port)"])
        #expect(https.status == 64)
        #expect(https.errors.contains("only http:// URLs"), "\(https.errors)")
    }
}
