import NIOCore
import NIOPosix
import SDLProtocol
import SDLTransport

extension SimulatedHeadUnit {
    /// Where the simulator accepts apps: SDL Core's TCP transport (default port 12345) or its
    /// WebSocket server for apps (default port 2020), docs/protocol.md §e "Ports and transports".
    public struct Listener: Sendable, Hashable {
        public enum Transport: String, Sendable, Hashable {
            /// SDL frames streamed over the socket with no extra framing.
            case tcp
            /// An HTTP/1.1 upgrade on any path, then one SDL frame per binary message.
            case webSocket
        }

        public var transport: Transport
        public var host: String
        /// 0 picks a free port.
        public var port: Int

        public init(transport: Transport, host: String, port: Int) {
            self.transport = transport
            self.host = host
            self.port = port
        }

        public static func tcp(host: String = "127.0.0.1", port: Int = 0) -> Listener {
            Listener(transport: .tcp, host: host, port: port)
        }

        public static func webSocket(host: String = "127.0.0.1", port: Int = 0) -> Listener {
            Listener(transport: .webSocket, host: host, port: port)
        }
    }

    /// A bound listener's server channel.
    enum BoundListener: Sendable {
        case tcp(NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>)
        case webSocket(NIOAsyncChannel<EventLoopFuture<SDLWebSocketServer.Upgrade>, Never>)

        var channel: any Channel {
            switch self {
            case .tcp(let server): server.channel
            case .webSocket(let server): server.channel
            }
        }
    }

    /// How a connection's outbound bytes are cut.
    enum Framing: Sendable {
        /// As they come: a TCP stream.
        case stream
        /// One buffer per SDL frame: one WebSocket message each, as Core sends them.
        case messagePerFrame
    }

    func bind(_ listener: Listener) async throws -> BoundListener {
        switch listener.transport {
        case .tcp:
            let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.so_keepalive), value: 1)
                .bind(host: listener.host, port: listener.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
            return .tcp(server)
        case .webSocket:
            return .webSocket(try await SDLWebSocketServer.bind(host: listener.host, port: listener.port))
        }
    }

    /// Cuts what the ``HeadUnit`` wrote (whole frames, back to back) into one buffer per frame,
    /// without copying. Bytes that are not a whole frame (a fault writing garbage) stay together
    /// as the last buffer.
    static func frames(in bytes: ByteBuffer) -> [ByteBuffer] {
        var rest = bytes
        // The head unit wrote these frames itself: no limit to enforce.
        var decoder = SDLFrameDecoder(maximumPayloadSize: Int(UInt32.max))
        var frames: [ByteBuffer] = []
        while rest.readableBytes > 0 {
            let start = rest.readerIndex
            guard case .some(.some) = try? decoder.decode(buffer: &rest),
                let frame = bytes.getSlice(at: start, length: rest.readerIndex - start)
            else { break }
            frames.append(frame)
        }
        if rest.readableBytes > 0 { frames.append(rest) }
        return frames
    }
}
