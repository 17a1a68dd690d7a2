import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOHTTP1
import SDLProtocol
import Testing

/// The built `sdl-gateway serve --simulate` on port 0, driven over HTTP like a user would: an
/// app registered, a Show, vehicle data subscribed and streamed over SSE, a file uploaded, then
/// SIGTERM and a clean exit.
@Suite("sdl-gateway serve --simulate end to end", .timeLimit(.minutes(2)))
struct ServeEndToEndTests {
    /// The executable beside the test bundle (`swift build` builds both into one directory).
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sdl-gateway")

    /// A running `sdl-gateway serve --simulate --listen 127.0.0.1:0`, its base URL read from the
    /// line it prints when listening.
    struct Server {
        let process: Process
        let baseURL: String
        /// Standard output, read up to the line naming the URL (`printed`).
        let output: FileHandle
        let printed: String

        static func start(_ arguments: [String] = [], environment: [String: String]? = nil) async throws -> Server {
            let process = Process()
            process.executableURL = ServeEndToEndTests.executable
            process.arguments = ["serve", "--simulate", "--listen", "127.0.0.1:0", "--log-level", "warning"] + arguments
            if let environment { process.environment = environment }
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Lines arrive as the server starts; the one naming the URL ends the wait. EOF (the
            // process died) ends it too.
            var text = ""
            let handle = output.fileHandleForReading
            while !text.contains("sdl-gateway on http://") || !text.hasSuffix("\n") {
                let data = try await handle.nextData()
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            guard let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
                process.terminate()
                throw ServeError(output: text)
            }
            return Server(process: process, baseURL: String(text[range]), output: handle, printed: text)
        }
    }

    /// Fails the test (never skips it) when the executable was not built beside the tests.
    static func requireExecutable() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "build sdl-gateway first (swift build): \(executable.path) is missing")
    }

    /// Runs `sdl-gateway ARGUMENTS` to its end: its exit status and what it wrote to stderr.
    static func runToExit(
        _ arguments: [String], environment: [String: String]? = nil
    ) async throws -> (status: Int32, errors: String, output: String) {
        try requireExecutable()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let errors = Pipe()
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = try await errors.fileHandleForReading.remainingText()
        let printed = try await output.fileHandleForReading.remainingText()
        try await process.exited()
        return (process.terminationStatus, text, printed)
    }

    struct ServeError: Error, CustomStringConvertible {
        let output: String
        var description: String { "sdl-gateway serve did not start: \(output)" }
    }

    static func send(
        _ method: HTTPMethod, _ url: String, json: SDLJSON? = nil, body: ByteBuffer? = nil
    ) async throws -> (status: Int, body: SDLJSON?) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json.serializedBytes()))
        }
        if let body { request.body = .bytes(body) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), try? SDLJSON.parse(bytes))
    }

    @Test("Register, Show, subscribe and stream vehicle data over SSE, upload a file, then SIGTERM exits within 5 s")
    func walkthrough() async throws {
        try Self.requireExecutable()
        let server = try await Server.start()
        defer { if server.process.isRunning { server.process.terminate() } }
        let base = server.baseURL
        let created = try await Self.send(.POST, "\(base)/v1/apps", json: ["id": "demo", "appName": "Demo", "appID": "demo-app"])
        #expect(created.status == 201)
        #expect(created.body?["connection"] == "registered")
        let shown = try await Self.send(.POST, "\(base)/v1/apps/demo/rpc/Show", json: ["mainField1": "Hello from curl"])
        #expect(shown.status == 200)
        #expect(shown.body?["resultCode"] == "SUCCESS")
        let screen = try await Self.send(.GET, "\(base)/v1/simulator/apps/demo-app/screen")
        #expect(screen.body?["show"]?["mainField1"] == "Hello from curl")
        let subscribed = try await Self.send(.PUT, "\(base)/v1/apps/demo/subscriptions/vehicle-data", json: ["names": ["speed", "rpm"]])
        #expect(subscribed.body?["speed"]?["resultCode"] == "SUCCESS")

        // The simulator's drive streams at 10 Hz: three vehicleData events arrive over SSE.
        var request = HTTPClientRequest(url: "\(base)/v1/apps/demo/events?types=vehicleData&names=speed")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let stream = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        var text = ""
        for try await chunk in stream.body {
            text += String(buffer: chunk)
            if text.components(separatedBy: "event: vehicleData").count > 3 { break }
        }
        #expect(text.contains("\"speed\":"))
        #expect(!text.contains("\"rpm\":"))

        let file = ByteBuffer(bytes: (0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        let uploaded = try await Self.send(.PUT, "\(base)/v1/apps/demo/files/track.bin", body: file)
        #expect(uploaded.status == 201)
        #expect(uploaded.body?["size"] == 300_000)
        let listed = try await Self.send(.GET, "\(base)/v1/apps/demo/files")
        #expect(listed.body?["files"] == ["track.bin"])

        let stopped = ContinuousClock.now
        server.process.interrupt()  // SIGINT: the same graceful shutdown as SIGTERM
        try await server.process.exited()
        let took = ContinuousClock.now - stopped
        #expect(server.process.terminationStatus == 0)
        #expect(took < .seconds(5))
        print("sdl-gateway serve shut down in \(took)")
    }

    @Test("serve --simulate --pretty-json: the gateway's app session reads Core-style pretty JSON (registration, Show)")
    func prettyJSONHeadUnit() async throws {
        try Self.requireExecutable()
        let server = try await Server.start(["--pretty-json"])
        defer { if server.process.isRunning { server.process.terminate() } }
        let created = try await Self.send(
            .POST, "\(server.baseURL)/v1/apps", json: ["id": "pretty", "appName": "Pretty", "appID": "pretty-1"])
        #expect(created.status == 201)
        #expect(created.body?["connection"] == "registered")
        let shown = try await Self.send(.POST, "\(server.baseURL)/v1/apps/pretty/rpc/Show", json: ["mainField1": "Tabs"])
        #expect(shown.body?["resultCode"] == "SUCCESS")
    }

    @Test("--log-format json: every line on standard output is one JSON object, the announcements and app logs included; SIGTERM ends it")
    func jsonLogLines() async throws {
        try Self.requireExecutable()
        let server = try await Server.start(["--log-format", "json", "--log-level", "info"])
        defer { if server.process.isRunning { server.process.terminate() } }
        let created = try await Self.send(
            .POST, "\(server.baseURL)/v1/apps", json: ["id": "logged", "appName": "Logged", "appID": "logged-1"])
        #expect(created.status == 201)
        server.process.terminate()  // SIGTERM
        let rest = try await server.output.remainingText()
        try await server.process.exited()
        #expect(server.process.terminationStatus == 0)
        let lines = (server.printed + rest).split(separator: "\n")
        #expect(lines.count >= 3)
        var messages: [String] = []
        for line in lines {
            let object = try #require(SDLJSON.parse(Array(line.utf8)).objectValue, "not a JSON object: \(line)")
            #expect(object["time"]?.stringValue?.hasSuffix("Z") == true)
            #expect(object["level"]?.stringValue != nil && object["label"] == "sdl-gateway")
            messages.append(try #require(object["message"]?.stringValue))
        }
        #expect(messages.contains { $0.hasPrefix("SDL head unit (simulated) on 127.0.0.1:") })
        #expect(messages.contains { $0.hasPrefix("sdl-gateway on http://127.0.0.1:") })
        #expect(lines.contains { $0.contains(#""gateway.app":"logged""#) }, "the app log lines carry its id as metadata")
    }

    /// The sockets the process holds (Linux: its `/proc/PID/fd` entries that are sockets).
    static func openSockets(of process: Process) -> Int? {
        let directory = "/proc/\(process.processIdentifier)/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        return entries.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)"))?.hasPrefix("socket:") == true
        }.count
    }

    @Test("Five create/delete cycles of one app id leave no socket behind, then SIGTERM exits within 5 s")
    func createDeleteCyclesThenSIGTERM() async throws {
        try Self.requireExecutable()
        let server = try await Server.start()
        defer { if server.process.isRunning { server.process.terminate() } }
        let base = server.baseURL
        // The client's keep-alive connection is open in the baseline and after the cycles alike.
        #expect(try await Self.send(.GET, "\(base)/v1/health").status == 200)
        let baseline = Self.openSockets(of: server.process)
        var lastSeqs: [Int64] = []
        for _ in 1...5 {
            let created = try await Self.send(.POST, "\(base)/v1/apps", json: ["id": "demo", "appName": "Demo", "appID": "demo-app"])
            #expect(created.status == 201)
            lastSeqs.append(created.body?["lastEventSeq"]?.intValue ?? 0)
            let deleted = try await Self.send(.DELETE, "\(base)/v1/apps/demo")
            #expect(deleted.status == 204)
        }
        // Each app re-created under the id numbers its events after the deleted one's.
        #expect(lastSeqs == lastSeqs.sorted() && Set(lastSeqs).count == 5, "\(lastSeqs)")
        if let baseline {
            // Each app's link closed from both ends: the gateway's side by the time DELETE answered,
            // the simulator's once it read the end of the stream (within a bounded wait).
            var sockets = Self.openSockets(of: server.process)
            let deadline = ContinuousClock.now + .seconds(2)
            while sockets != baseline, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
                sockets = Self.openSockets(of: server.process)
            }
            #expect(sockets == baseline, "sockets after five cycles: \(sockets ?? -1), before: \(baseline)")
        }
        let stopped = ContinuousClock.now
        server.process.terminate()  // SIGTERM
        try await server.process.exited()
        let took = ContinuousClock.now - stopped
        #expect(server.process.terminationStatus == 0)
        #expect(took < .seconds(5))
    }

    @Test("Listening beyond loopback without a token is refused at start")
    func refusesOpenNonLoopback() async throws {
        let (status, errors, _) = try await Self.runToExit(["serve", "--simulate", "--listen", "0.0.0.0:0"])
        #expect(status != 0)
        #expect(errors.contains("without a token"), "\(errors)")
    }

    @Test(
        "A listen address in use stops start-up with a message naming it (it said bind(descriptor:ptr:bytes:)), before the simulator starts"
    )
    func listenAddressInUse() async throws {
        let holder = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(holder.localAddress?.port)
        let (status, errors, output) = try await Self.runToExit([
            "serve", "--simulate", "--listen", "127.0.0.1:\(port)", "--log-level", "error",
        ])
        try await holder.close()
        #expect(status != 0)
        #expect(errors.contains("cannot listen on 127.0.0.1:\(port): the address is in use"), "\(errors)")
        #expect(!output.contains("SDL head unit"), "the simulator started before the refusal: \(output)")
    }

    @Test("serve --simulate takes the simulator's options (here SDL Core's default policy) and its routes take the gateway's app id")
    func simulatorOptions() async throws {
        try Self.requireExecutable()
        let server = try await Server.start(["--policy", "default", "--time-scale", "0.5"])
        defer { if server.process.isRunning { server.process.terminate() } }
        let base = server.baseURL
        let created = try await Self.send(.POST, "\(base)/v1/apps", json: ["id": "radio", "appName": "Radio", "appID": "radio-app"])
        #expect(created.status == 201)
        // The default policy (Base-4) does not grant vehicle data (the permission table the head
        // unit sent says so); the open policy does.
        let speed = try await Self.send(.POST, "\(base)/v1/apps/radio/rpc/GetVehicleData", json: ["speed": true])
        #expect(speed.status == 403, "\(String(describing: speed.body))")
        #expect(speed.body?["type"] == "urn:sdl-gateway:problem:not-permitted", "\(String(describing: speed.body))")
        // The simulator's routes find the app by the gateway's id as well as by its SDL appID.
        let byGatewayID = try await Self.send(.GET, "\(base)/v1/simulator/apps/radio")
        #expect(byGatewayID.status == 200)
        #expect(byGatewayID.body?["appID"] == "radio-app")
        let bySDLAppID = try await Self.send(.GET, "\(base)/v1/simulator/apps/radio-app/screen")
        #expect(bySDLAppID.status == 200)
        server.process.terminate()
        try await server.process.exited()
    }

    @Test("Simulator options without --simulate are refused naming the option, with serve's usage (not the root command's)")
    func simulatorOptionsNeedSimulate() async throws {
        let (status, errors, _) = try await Self.runToExit(["serve", "--policy", "default"])
        #expect(status != 0)
        #expect(errors.contains("--policy is an option of the simulator: add --simulate"), "\(errors)")
        #expect(errors.contains("Usage: sdl-gateway serve"), "\(errors)")
        #expect(!errors.contains("<subcommand>"), "\(errors)")
        let (variableStatus, variableErrors, _) = try await Self.runToExit(["serve"], environment: ["SDL_SIMULATOR_POLICY": "default"])
        #expect(variableStatus != 0)
        #expect(variableErrors.contains("SDL_SIMULATOR_POLICY is a setting of the simulator, which is off"), "\(variableErrors)")
    }

    @Test("SDL_SIMULATOR_LISTEN and SDL_SIMULATOR_WS_LISTEN place serve --simulate's head unit, where a raw SDL client reaches it")
    func simulatorListenFromEnvironment() async throws {
        try Self.requireExecutable()
        // A port free a moment ago (bound, then let go).
        let holder = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(holder.localAddress?.port)
        try await holder.close()
        let server = try await Server.start(environment: [
            "SDL_SIMULATOR_LISTEN": "127.0.0.1:\(port)", "SDL_SIMULATOR_WS_LISTEN": "127.0.0.1:0",
        ])
        defer { if server.process.isRunning { server.process.terminate() } }
        #expect(server.printed.contains("SDL head unit (simulated) on 127.0.0.1:\(port)"), "\(server.printed)")
        #expect(server.printed.contains("SDL WebSocket (simulated) on 127.0.0.1:"), "\(server.printed)")
        // Something listens there, and the gateway's own apps still reach the head unit.
        let probe = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
        try await probe.close()
        let created = try await Self.send(
            .POST, "\(server.baseURL)/v1/apps", json: ["id": "radio", "appName": "Radio", "appID": "radio-app"])
        #expect(created.status == 201)
        server.process.terminate()
        try await server.process.exited()
    }
}
