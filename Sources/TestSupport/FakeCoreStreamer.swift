import NIOCore
import NIOPosix

/// A fake of SDL Core 8.2's socket stream consumer (media_manager socket_streamer_adapter.cc,
/// video/socket_video_streamer_adapter.cc; docs/protocol.md §n) for tests of the headless HMI's
/// stream reader: it listens on 127.0.0.1:0, accepts one client, never reads what the client
/// sends, writes Core's HTTP response head before the first bytes, then the payload of each data
/// frame as it is, and closes (Core closes when the app's data stops).
public struct FakeCoreStreamer: Sendable {
    /// The head Core writes before the first frame (the audio consumer writes the same).
    public static let head =
        "HTTP/1.1 200 OK\r\nConnection: Keep-Alive\r\nKeep-Alive: timeout=15, max=300\r\nServer: SDL\r\nContent-Type: video/mp4\r\n\r\n"

    public let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    public let port: Int

    public static func bind() async throws -> FakeCoreStreamer {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        guard let port = server.channel.localAddress?.port else { throw NoPort() }
        return FakeCoreStreamer(server: server, port: port)
    }

    struct NoPort: Error {}

    /// `http://127.0.0.1:port`, as Core names its socket consumer in `Navigation.StartStream`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Accepts one client, writes the head and then `frames` in order, and closes it and the listener.
    public func serveOne(frames: [ByteBuffer]) async throws {
        try await server.executeThenClose { accepted in
            var clients = accepted.makeAsyncIterator()
            guard let client = try await clients.next() else { return }
            try await client.executeThenClose { _, outbound in
                try await outbound.write(ByteBuffer(string: Self.head))
                for frame in frames { try await outbound.write(frame) }
            }
        }
    }
}
