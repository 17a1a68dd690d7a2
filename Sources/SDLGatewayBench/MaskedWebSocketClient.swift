import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ProcessHarness
import WebSocketMasking

/// The video scenario's WebSocket client, which sends as a browser does: every frame masked with
/// a fresh random key (RFC 6455 §5.3), the payload masked 8 bytes at a time in the same pass as
/// its copy into the frame (`WebSocketMask`), header, key and payload written as bytes.
///
/// A client built on NIO's `WebSocketFrameEncoder` (HummingbirdWSClient) masks a byte at a time,
/// and that loop was a third of the harness's time on the shared cores, so the WebSocket figure
/// measured the harness rather than the gateway (BENCHMARKS.md). The upgrade is NIO's (its
/// request headers and `Sec-WebSocket-Accept` check); after it the pipeline has NIO's frame
/// decoder for what the gateway sends, and no frame encoder.
enum MaskedWebSocketClient {
    /// Sends one binary message (one frame).
    typealias Send = (ByteBuffer) async throws -> Void

    /// Connects to `ws://host:port/path`, runs `body` with a send function, then closes with
    /// 1000 and waits for the gateway's close.
    static func connect(host: String, port: Int, path: String, _ body: (_ send: Send) async throws -> Void) async throws {
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
                    head.headers.add(name: "Host", value: "\(host):\(port)")
                    let upgrade = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: head, upgraders: [Upgrader()],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(.refused) })
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgrade))
                }
            }
        guard case .upgraded(let channel) = try await upgrade.get() else {
            throw BenchFailure(description: "ws://\(host):\(port)\(path) was not upgraded to a WebSocket")
        }
        try await channel.executeThenClose { inbound, outbound in
            let allocator = channel.channel.allocator
            try await body { payload in
                try await outbound.write(frame(payload, opcode: binaryOpcode, key: .random(), allocator: allocator))
            }
            var code = allocator.buffer(capacity: 2)
            code.writeInteger(UInt16(1000))
            try await outbound.write(frame(code, opcode: closeOpcode, key: .random(), allocator: allocator))
            for try await answer in inbound where answer.opcode == .connectionClose { break }
        }
    }

    static let binaryOpcode: UInt8 = 0x2
    static let closeOpcode: UInt8 = 0x8

    /// One final client frame on the wire (RFC 6455 §5.2): FIN and `opcode`, the MASK bit and
    /// the payload length (7 bits, or 126 and 16 bits, or 127 and 64 bits), the key, then
    /// `payload`'s readable bytes masked with it.
    static func frame(_ payload: ByteBuffer, opcode: UInt8, key: WebSocketMaskingKey, allocator: ByteBufferAllocator) -> ByteBuffer {
        let count = payload.readableBytes
        var frame = allocator.buffer(capacity: 14 + count)
        frame.writeInteger(0x80 | opcode)
        switch count {
        case ..<126:
            frame.writeInteger(0x80 | UInt8(count))
        case ...Int(UInt16.max):
            frame.writeInteger(UInt8(0x80 | 126))
            frame.writeInteger(UInt16(count))
        default:
            frame.writeInteger(UInt8(0x80 | 127))
            frame.writeInteger(UInt64(count))
        }
        frame.writeBytes(key)
        WebSocketMask.write(payload, maskedWith: key, to: &frame)
        return frame
    }

    enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, ByteBuffer>)
        case refused
    }

    /// NIO's WebSocket upgrade (request headers, the `Sec-WebSocket-Accept` check) with a
    /// pipeline of our own after it: the frame decoder, no encoder.
    struct Upgrader: NIOTypedHTTPClientProtocolUpgrader {
        typealias UpgradeResult = Upgrade

        /// Only its headers and its check are used (one random `Sec-WebSocket-Key` for both).
        let webSocket = NIOTypedWebSocketClientUpgrader<Upgrade>(upgradePipelineHandler: { channel, _ in
            channel.eventLoop.makeSucceededFuture(.refused)
        })

        var supportedProtocol: String { webSocket.supportedProtocol }
        var requiredUpgradeHeaders: [String] { webSocket.requiredUpgradeHeaders }

        func addCustom(upgradeRequestHeaders: inout HTTPHeaders) { webSocket.addCustom(upgradeRequestHeaders: &upgradeRequestHeaders) }

        func shouldAllowUpgrade(upgradeResponse: HTTPResponseHead) -> Bool {
            webSocket.shouldAllowUpgrade(upgradeResponse: upgradeResponse)
        }

        func upgrade(channel: any Channel, upgradeResponse: HTTPResponseHead) -> EventLoopFuture<Upgrade> {
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
                return .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
            }
        }
    }
}
