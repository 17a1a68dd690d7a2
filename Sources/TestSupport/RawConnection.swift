import NIOCore
import NIOPosix

/// A plain TCP connection to a server on loopback, for what an HTTP client library hides:
/// reading a response head as sent, sending half a request, and leaving without a word (the way
/// a closed browser tab or `curl -m` leaves). Shared by the test targets.
public struct RawConnection: Sendable {
    public let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// Connects to `port` on loopback. `receiveBuffer` sets the socket's receive buffer
    /// (`SO_RCVBUF`) before connecting: a small one makes a client that does not read hold the
    /// server back after a few kilobytes. With `halfClosure`, the server's end of its writes
    /// (a WebSocket server's after its close frame) ends the reads and leaves writing open.
    public static func connect(port: Int, receiveBuffer: Int? = nil, halfClosure: Bool = false) async throws -> RawConnection {
        var bootstrap = ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
        if let receiveBuffer { bootstrap = bootstrap.channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(receiveBuffer)) }
        if halfClosure { bootstrap = bootstrap.channelOption(.allowRemoteHalfClosure, value: true) }
        let channel =
            try await bootstrap
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return RawConnection(channel: channel)
    }

    /// Sends `request`, reads until the text read so far contains `marker` (or the server
    /// closes), then closes the connection; what was read.
    public func exchange(_ request: String, until marker: String) async throws -> String {
        try await exchange(request) { $0.contains(marker) }
    }

    /// Sends `request`, reads until `done` says so of the text read so far (or the server
    /// closes), then closes the connection; what was read.
    public func exchange(_ request: String, until done: (String) -> Bool) async throws -> String {
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            var text = ""
            for try await chunk in inbound {
                text += String(buffer: chunk)
                if done(text) { break }
            }
            return text
        }
    }

    /// Opens a connection, sends `request`, reads until `marker`, and leaves.
    public static func exchange(port: Int, _ request: String, until marker: String) async throws -> String {
        try await connect(port: port).exchange(request, until: marker)
    }

    /// A GET with the given extra header lines.
    public static func get(_ path: String, _ headers: [String]) -> String {
        (["GET \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// The header lines of a WebSocket upgrade.
    public static let webSocketUpgrade = [
        "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    ]

    /// Sends `request` and reads everything until the server closes the connection: what was
    /// read, or nil when the server kept it open for `limit` (the connection is closed then).
    /// A write or read failing because the server closed first counts as closed.
    public static func readUntilClosed(port: Int, sending request: String, limit: Duration) async throws -> String? {
        try await connect(port: port).within(limit) { connection in
            var text = ""
            try? await connection.channel.executeThenClose { inbound, outbound in
                // The server may have answered and closed before a late write (a busy test
                // machine): what it sent is still read.
                if !request.isEmpty { try? await outbound.write(ByteBuffer(string: request)) }
                for try await chunk in inbound { text += String(buffer: chunk) }
            }
            return text
        }
    }

    /// Runs `body` on this connection; nil, and the connection closed, when it has not returned
    /// within `limit`: a server that neither answers nor closes ends the wait, not the test run.
    public func within<Result: Sendable>(
        _ limit: Duration, _ body: @escaping @Sendable (RawConnection) async throws -> Result
    ) async throws -> Result? {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await body(self) }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            let first = try await group.next() ?? nil
            if first == nil { try? await channel.channel.close() }
            return first
        }
    }
}
