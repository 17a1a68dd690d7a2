import NIOCore
import NIOPosix
import SDLTransport
import TestSupport
import Testing

/// ``SDLTransportClient`` against ``SDLWebSocketServer`` and a plain HTTP server over real sockets
/// (127.0.0.1, port 0).
@Suite("Transport over loopback", .timeLimit(.minutes(1)))
struct LoopbackTests {
    /// Runs a WebSocket server whose connections echo every message back, one by one, while
    /// `body` runs with its port.
    static func withEchoServer(_ body: @Sendable (Int) async throws -> Void) async throws {
        let server = try await SDLWebSocketServer.bind(host: "127.0.0.1", port: 0)
        let port = try #require(server.channel.localAddress?.port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await withThrowingDiscardingTaskGroup { connections in
                    try await server.executeThenClose { inbound in
                        for try await accepted in inbound {
                            connections.addTask {
                                guard let connection = try? await SDLWebSocketServer.upgraded(accepted) else { return }
                                try? await connection.executeThenClose { inbound, outbound in
                                    for try await message in inbound { try await outbound.write(message) }
                                }
                            }
                        }
                    }
                }
            }
            defer { group.cancelAll() }
            try await body(port)
        }
    }

    @Test("ws: message boundaries survive both ways, on any request path, up to the size limit")
    func webSocketEcho() async throws {
        try await Self.withEchoServer { port in
            let address = try SDLTransportAddress("ws://127.0.0.1:\(port)/any/path?sdl-transport-role=ws-server")
            let channel = try await SDLTransportClient.connect(to: address)
            try await channel.executeThenClose { inbound, outbound in
                // An SDL frame of MTU 131072 plus its header, well above NIO's default 16 KiB frame limit.
                let messages = [ByteBuffer(string: "first"), ByteBuffer(repeating: 0x5A, count: 131_084), ByteBuffer(string: "third")]
                try await outbound.write(contentsOf: messages)
                var received: [ByteBuffer] = []
                for try await message in inbound {
                    received.append(message)
                    if received.count == messages.count { break }
                }
                #expect(received == messages)
            }
        }
    }

    @Test("tcp: the socket itself, bytes as they are")
    func tcp() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let port = try #require(server.channel.localAddress?.port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        try await connection.executeThenClose { inbound, outbound in
                            for try await bytes in inbound { try await outbound.write(bytes) }
                        }
                        return
                    }
                }
            }
            let channel = try await SDLTransportClient.connect(to: .tcp(host: "127.0.0.1", port: port))
            try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "raw bytes"))
                var received = ByteBuffer()
                for try await var bytes in inbound {
                    received.writeBuffer(&bytes)
                    if received.readableBytes >= 9 { break }
                }
                #expect(received == ByteBuffer(string: "raw bytes"))
            }
            try await group.next()
        }
    }

    @Test("A server that answers the upgrade with 404 is webSocketUpgradeRefused, naming the status")
    func upgradeRefused() async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let port = try #require(server.channel.localAddress?.port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        try await connection.executeThenClose { inbound, outbound in
                            var request = ByteBuffer()
                            for try await var bytes in inbound {
                                request.writeBuffer(&bytes)
                                if String(buffer: request).contains("\r\n\r\n") { break }
                            }
                            try await outbound.write(ByteBuffer(string: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
                        }
                        return
                    }
                }
            }
            do {
                _ = try await SDLTransportClient.connect(to: SDLTransportAddress("ws://127.0.0.1:\(port)/sdl"))
                Issue.record("the upgrade succeeded")
            } catch let error as SDLTransportError {
                #expect(error.code == .webSocketUpgradeRefused)
                #expect(error.detail.contains("404"))
            }
            try await group.next()
        }
    }

    @Test("ws server: a connection that never completes its upgrade is closed after the upgrade timeout")
    func upgradeTimeout() async throws {
        let server = try await SDLWebSocketServer.bind(host: "127.0.0.1", port: 0, upgradeTimeout: .milliseconds(100))
        let port = try #require(server.channel.localAddress?.port)
        let closed = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await server.executeThenClose { inbound in
                    var accepted = inbound.makeAsyncIterator()
                    guard let upgrade = try await accepted.next() else { return false }
                    // The upgrade fails once the deadline closes the connection.
                    return (try? await SDLWebSocketServer.upgraded(upgrade)) == nil
                }
            }
            group.addTask {
                // Half a request head, then silence until the server ends the connection (or 10 s).
                try await RawConnection.readUntilClosed(port: port, sending: "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", limit: .seconds(10))
                    != nil
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(closed, "the server held a connection without an upgrade for 10 s")
    }
}
