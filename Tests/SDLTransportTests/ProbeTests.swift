import NIOCore
import NIOPosix
import SDLTransport
import Testing

/// ``SDLTransportClient/probe(_:configuration:)``: a ws or wss head unit is ready when it upgrades,
/// not when its TCP port accepts.
@Suite("Transport probe", .timeLimit(.minutes(1)))
struct ProbeTests {
    @Test("ws: a WebSocket server passes; a port that accepts and never upgrades fails, where a tcp probe of it passes")
    func webSocketUpgradeNeeded() async throws {
        try await LoopbackTests.withEchoServer { port in
            try await SDLTransportClient.probe(SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: port))
        }
        // Accepts connections and reads what comes, answering nothing.
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let port = try #require(silent.channel.localAddress?.port)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                // Ends with the cancellation below.
                try? await withThrowingDiscardingTaskGroup { connections in
                    try await silent.executeThenClose { inbound in
                        for try await connection in inbound {
                            connections.addTask { try? await connection.executeThenClose { inbound, _ in for try await _ in inbound {} } }
                        }
                    }
                }
            }
            let configuration = SDLTransportClient.Configuration(connectTimeout: .milliseconds(200))
            try await SDLTransportClient.probe(.tcp(host: "127.0.0.1", port: port), configuration: configuration)
            await #expect(throws: (any Error).self) {
                try await SDLTransportClient.probe(
                    SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: port), configuration: configuration)
            }
            group.cancelAll()
        }
    }

    @Test("A closed port fails for tcp and ws")
    func closedPort() async throws {
        for scheme in [SDLTransportAddress.Scheme.tcp, .ws] {
            await #expect(throws: (any Error).self) {
                try await SDLTransportClient.probe(SDLTransportAddress(scheme: scheme, host: "127.0.0.1", port: 1))
            }
        }
    }
}
