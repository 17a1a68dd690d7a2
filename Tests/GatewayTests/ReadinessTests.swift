import Gateway
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import Logging
import SDLTransport
import TestSupport
import Testing

/// `GET /v1/ready` with no apps probes the head unit as an app would connect to it, over its
/// transport: for ws the WebSocket upgrade, not only the TCP port.
@Suite("Readiness probe over the head unit's transport", .timeLimit(.minutes(1)))
struct ReadinessTests {
    /// The status of `GET /v1/ready` of a gateway whose head unit is `core`.
    static func readiness(of core: SDLTransportAddress) async throws -> HTTPResponse.Status {
        try await HeadUnitEventLoops.with { loops in
            let configuration = GatewayConfiguration(port: 0, sessions: .init(defaultCore: core, eventLoopGroup: loops))
            let (application, _) = try await buildApplication(configuration, logger: Logger.test("test"))
            return try await application.test(.router) { client in
                try await client.execute(uri: "/v1/ready", method: .get) { response in
                    if response.status != .ok { #expect(response.problemType == "not-connected") }
                    return response.status
                }
            }
        }
    }

    @Test("Ready against the simulator's TCP listener and its WebSocket listener; not on ws to a port that does not upgrade")
    func transports() async throws {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(), logger: Logger.test("test"))
        try await simulator.withListening([.tcp(host: "127.0.0.1", port: 0), .webSocket(host: "127.0.0.1", port: 0)]) { ports in
            let tcp = try await Self.readiness(of: .tcp(host: "127.0.0.1", port: ports[0]))
            #expect(tcp == .ok)
            let webSocket = try await Self.readiness(of: SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: ports[1]))
            #expect(webSocket == .ok)
            // The TCP listener takes the connection but speaks no HTTP: no head unit for ws.
            let notWebSocket = try await Self.readiness(of: SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: ports[0]))
            #expect(notWebSocket == .serviceUnavailable)
        }
    }

    @Test("503 when the head unit's port is closed, over tcp and ws")
    func closedPort() async throws {
        #expect(try await Self.readiness(of: .tcp(host: "127.0.0.1", port: 1)) == .serviceUnavailable)
        #expect(try await Self.readiness(of: SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: 1)) == .serviceUnavailable)
    }
}
