import NIOCore
import NIOPosix
import SDLProtocol
import Synchronization

/// A TCP proxy in front of a head unit that decodes every frame the app writes, in the order the
/// bytes crossed the wire: what the head unit sees. Unchanged unless ``Hooks`` say otherwise: a
/// fake head unit (SDLClientTests' `StreamingHeadUnit`) takes some frames itself, and a
/// ``ReadPause`` makes a head unit that stops reading the app (a slow link).
public final class WireTap: Sendable {
    public struct Hooks: Sendable {
        /// Each app connection's channel, as it opens (to write the app frames of one's own).
        public var connected: @Sendable (any Channel) -> Void
        /// Awaited before the bytes of each read from the app are handled (a head unit that stops reading).
        public var beforeRead: @Sendable () async -> Void
        /// Takes a frame the app wrote instead of the head unit; true when it did.
        public var intercept: @Sendable (SDLFrame) -> Bool

        public init(
            connected: @escaping @Sendable (any Channel) -> Void = { _ in }, beforeRead: @escaping @Sendable () async -> Void = {},
            intercept: @escaping @Sendable (SDLFrame) -> Bool = { _ in false }
        ) {
            self.connected = connected
            self.beforeRead = beforeRead
            self.intercept = intercept
        }
    }

    private let headers = Mutex<[SDLFrameHeader]>([])
    private let hooks: Hooks

    public init(hooks: Hooks = Hooks()) {
        self.hooks = hooks
    }

    /// The headers of the frames the app sent, in wire order.
    public var sent: [SDLFrameHeader] { headers.withLock { $0 } }

    /// Listens on 127.0.0.1 (port 0) until cancelled, forwarding each connection to
    /// `upstreamPort`; `onListening` gets the port.
    public func run(upstreamPort: Int, onListening: @Sendable (Int) -> Void) async throws {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        onListening(server.channel.localAddress?.port ?? 0)
        try await server.executeThenClose { clients in
            try await withThrowingDiscardingTaskGroup { group in
                for try await client in clients {
                    group.addTask { try? await self.forward(client, to: upstreamPort) }
                }
            }
        }
    }

    private func forward(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>, to port: Int) async throws {
        hooks.connected(client.channel)
        let upstream = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await client.executeThenClose { appInbound, appOutbound in
            try await upstream.executeThenClose { unitInbound, unitOutbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        var decoder = SDLFrameDecoder(maximumPayloadSize: 1 << 20)
                        var buffer = ByteBuffer()
                        for try await var bytes in appInbound {
                            await self.hooks.beforeRead()
                            buffer.writeBuffer(&bytes)
                            while let frame = try decoder.decode(buffer: &buffer) {
                                self.headers.withLock { $0.append(frame.header) }
                                guard !self.hooks.intercept(frame) else { continue }
                                var frameBytes = ByteBuffer()
                                frameBytes.writeSDLFrame(frame)
                                try await unitOutbound.write(frameBytes)
                            }
                        }
                    }
                    group.addTask {
                        for try await bytes in unitInbound { try await appOutbound.write(bytes) }
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                }
            }
        }
    }
}
