import NIOCore
import NIOPosix
import SDLProtocol
import Synchronization

/// A TCP proxy in front of a head unit that decodes every frame the app writes, in the order the
/// bytes crossed the wire: what the head unit sees, without changing it.
final class WireTap: Sendable {
    private let headers = Mutex<[SDLFrameHeader]>([])

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
                            buffer.writeBuffer(&bytes)
                            while let frame = try decoder.decode(buffer: &buffer) {
                                self.headers.withLock { $0.append(frame.header) }
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
