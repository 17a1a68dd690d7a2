import NIOCore
import NIOPosix
import SDLProtocol
import Synchronization

/// A TCP proxy in front of a head unit that decodes every frame the app writes, in the order the
/// bytes crossed the wire: what the head unit sees. Unchanged unless ``Hooks`` say otherwise: a
/// fake head unit (``StreamingHeadUnit``) takes some frames itself and can stop reading the app.
final class WireTap: Sendable {
    struct Hooks: Sendable {
        /// Each app connection's channel, as it opens (to write the app frames of one's own).
        var connected: @Sendable (any Channel) -> Void = { _ in }
        /// Awaited before the bytes of each read from the app are handled (a head unit that stops reading).
        var beforeRead: @Sendable () async -> Void = {}
        /// Takes a frame the app wrote instead of the head unit; true when it did.
        var intercept: @Sendable (SDLFrame) -> Bool = { _ in false }
    }

    private let headers = Mutex<[SDLFrameHeader]>([])
    private let hooks: Hooks

    init(hooks: Hooks = Hooks()) {
        self.hooks = hooks
    }

    /// The headers of the frames the app sent, in wire order.
    var sent: [SDLFrameHeader] { headers.withLock { $0 } }

    /// Listens on 127.0.0.1 (port 0) until cancelled, forwarding each connection to
    /// `upstreamPort`; `onListening` gets the port.
    func run(upstreamPort: Int, onListening: @Sendable (Int) -> Void) async throws {
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
