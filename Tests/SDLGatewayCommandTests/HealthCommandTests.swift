import Foundation
import NIOCore
import NIOPosix
import Testing

/// `sdl-gateway health`, the container's HEALTHCHECK, against the real executable.
@Suite("sdl-gateway health", .timeLimit(.minutes(1)))
struct HealthCommandTests {
    typealias Server = ServeEndToEndTests.Server

    static func port(_ server: Server) throws -> String {
        try #require(server.baseURL.split(separator: ":").last.map(String.init))
    }

    @Test("Healthy: exit 0 with the answer; ready needs the token, taken from SDL_GATEWAY_TOKENS; 0.0.0.0 is asked on the loopback")
    func healthyAndReady() async throws {
        try ServeEndToEndTests.requireExecutable()
        let server = try await Server.start(["--token", "health-check-token:read"])
        defer { server.process.terminate() }
        let port = try Self.port(server)
        let health = try await ServeEndToEndTests.runToExit(["health", "--address", "127.0.0.1:\(port)"])
        #expect(health.status == 0)
        #expect(health.output.contains(#"/v1/health: 200 {"status":"ok"}"#), "\(health.output)")

        let refused = try await ServeEndToEndTests.runToExit(["health", "--address", "127.0.0.1:\(port)", "--ready"], environment: [:])
        #expect(refused.status == 1)
        #expect(refused.output.contains("/v1/ready: 401"), "\(refused.output)")

        let environment = ["SDL_GATEWAY_LISTEN": "0.0.0.0:\(port)", "SDL_GATEWAY_TOKENS": "health-check-token:read,other-token-2"]
        let ready = try await ServeEndToEndTests.runToExit(["health", "--ready"], environment: environment)
        #expect(ready.status == 0)
        #expect(ready.output.contains(#""status":"ready""#), "\(ready.output)")
    }

    @Test("Nothing listening: exit 1 naming the address")
    func nothingListening() async throws {
        // A port that was free a moment ago, outside the ephemeral range that parallel tests' port-0
        // binds draw from, so nobody takes it before the command asks it.
        var free: Int?
        for _ in 0..<50 where free == nil {
            let candidate = Int.random(in: 20_000..<30_000)
            if let channel = try? await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(
                host: "127.0.0.1", port: candidate
            ).get() {
                try await channel.close()
                free = candidate
            }
        }
        let port = try #require(free)
        let result = try await ServeEndToEndTests.runToExit(["health", "--address", "127.0.0.1:\(port)"])
        #expect(result.status == 1)
        #expect(result.output.contains("no answer from 127.0.0.1:\(port)"), "\(result.output)")
    }

    @Test("A server that accepts and never answers: exit 1 when --timeout runs out, not a hang")
    func silentServer() async throws {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        defer { channel.close(promise: nil) }
        let port = try #require(channel.localAddress?.port)
        let started = ContinuousClock.now
        let result = try await ServeEndToEndTests.runToExit(["health", "--address", "127.0.0.1:\(port)", "--timeout", "0.5"])
        #expect(result.status == 1)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(result.output.contains("no answer"), "\(result.output)")
    }
}
