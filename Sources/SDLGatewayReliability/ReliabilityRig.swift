import Foundation
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLProtocol

/// The simulator and the gateway as separate processes on 127.0.0.1, as users run them, and what
/// the scenarios do to them: HTTP requests, the simulator's control API, signals, a restart of
/// the simulator on the same SDL port.
/// The rig belongs to the task that drives the scenarios; what concurrent tasks need is in the
/// `Sendable` endpoints (``api`` and ``control``).
final class ReliabilityRig {
    let executable: String
    let sdlPort: Int
    private(set) var simulator: BenchProcess
    let gateway: BenchProcess
    let api: GatewayEndpoint
    /// The simulator's control API (a new port after each restart).
    private(set) var control: ControlEndpoint

    /// Starts the simulator (free ports) and `serve --core` on it with `gatewayArguments` added.
    init(executable: String, gatewayArguments: [String]) throws {
        self.executable = executable
        let (simulator, sdlPort, controlPort) = try Self.startSimulator(executable, sdlPort: 0)
        self.simulator = simulator
        self.sdlPort = sdlPort
        self.control = ControlEndpoint(port: controlPort)
        let launcher = GatewayLauncher(
            executable: executable,
            arguments: ["serve", "--listen", "127.0.0.1:0", "--core", "tcp://127.0.0.1:\(sdlPort)", "--log-level", "error"]
                + gatewayArguments
        )
        let (gateway, _, port) = try launcher.start()
        self.gateway = gateway
        self.api = GatewayEndpoint(port: port)
    }

    static func startSimulator(_ executable: String, sdlPort: Int) throws -> (BenchProcess, Int, Int) {
        let (process, addresses) = try BenchProcess.start(
            executable,
            [
                "simulate", "--listen", "127.0.0.1:\(sdlPort)", "--control", "127.0.0.1:0", "--auto-activate", "--request-limit", "0",
                "--log-level", "error",
            ],
            waitingFor: [#"SDL head unit on 127\.0\.0\.1:([0-9]+)"#, #"control API on http://127\.0\.0\.1:([0-9]+)"#]
        )
        guard let sdl = Int(addresses[0]), let control = Int(addresses[1]) else {
            throw BenchFailure(description: "simulate printed \(addresses)")
        }
        return (process, sdl, control)
    }

    /// Kills the simulator (SIGKILL: no goodbye on the wire), as a head unit that loses power.
    func killSimulator() {
        simulator.send(SIGKILL)
        simulator.process.waitUntilExit()
    }

    /// A new simulator process on the same SDL port (new control port): the head unit back.
    func restartSimulator() throws {
        simulator.stop()
        let (process, _, control) = try Self.startSimulator(executable, sdlPort: sdlPort)
        simulator = process
        self.control = ControlEndpoint(port: control)
    }

    func stop() {
        gateway.stop()
        simulator.stop()
    }
}

/// The simulator's control API.
struct ControlEndpoint: Sendable {
    let port: Int

    func callAsFunction(_ method: HTTPMethod, _ path: String, _ body: String? = nil) async throws -> HTTPKeepAliveClient.Response {
        try await GatewayEndpoint.request(port: port, method, path, body)
    }
}

/// The gateway's API: one request per connection (as scripts and curl do), and the polls the
/// scenarios wait with.
struct GatewayEndpoint: Sendable {
    let port: Int

    func callAsFunction(_ method: HTTPMethod, _ path: String, _ body: String? = nil) async throws -> HTTPKeepAliveClient.Response {
        try await Self.request(port: port, method, path, body)
    }

    static func request(port: Int, _ method: HTTPMethod, _ path: String, _ body: String?) async throws -> HTTPKeepAliveClient.Response {
        let client = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        return try await client.run { send in try await send(method, path, body.map { ByteBuffer(string: $0) }) }
    }

    /// Creates app `id` (its SDL appID is the same) and waits until it is registered and out of NONE.
    func createApp(_ id: String) async throws {
        let created = try await self(.POST, "/v1/apps", #"{"id":"\#(id)","appName":"Reliability \#(id)","appID":"\#(id)"}"#)
        guard created.status == 201 else {
            throw BenchFailure(description: "POST /v1/apps \(id) answered \(created.status): \(String(buffer: created.body))")
        }
        try await waitForApp(id, within: .seconds(15)) {
            $0["connection"] == "registered" && $0["hmiLevel"] != nil && $0["hmiLevel"] != "NONE"
        }
    }

    /// Polls `GET /v1/apps/{id}` until `condition` holds (a head unit's state, seen from outside):
    /// how long that took.
    @discardableResult
    func waitForApp(_ id: String, within limit: Duration, until condition: (SDLJSON) -> Bool) async throws -> Duration {
        let started = ContinuousClock.now
        while true {
            let response = try await self(.GET, "/v1/apps/\(id)")
            if response.status == 200, let app = response.json, condition(app) { return ContinuousClock.now - started }
            guard ContinuousClock.now - started < limit else {
                throw BenchFailure(description: "app \(id) did not reach the expected state in \(limit): \(String(buffer: response.body))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The value of a gauge or counter of `/metrics` (its first sample), or nil.
    func metric(_ name: String) async throws -> Double? {
        let response = try await self(.GET, "/metrics")
        for line in String(buffer: response.body).split(separator: "\n") where line.hasPrefix(name + " ") || line.hasPrefix(name + "{") {
            return line.split(separator: " ").last.flatMap { Double($0) }
        }
        return nil
    }
}

extension HTTPKeepAliveClient.Response {
    var json: SDLJSON? { try? SDLJSON.parse(body) }
}
