import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import SDLGatewayBench

/// ``MaskedWebSocketClient``'s frames, read back by NIO's frame decoder (RFC 6455 §5.2, §5.3).
@Suite("sdl-gateway-bench: the video WebSocket client's masked frames")
struct MaskedWebSocketClientTests {
    static func pseudoRandom(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    @Test("Every length form (7, 16 and 64 bits) decodes to the payload, masked with the frame's key, FIN and binary")
    func lengthsDecode() throws {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        let key: WebSocketMaskingKey = [0x37, 0xFA, 0x21, 0x3D]
        for count in [0, 1, 5, 125, 126, 127, 65_535, 65_536, 200_001] {
            let payload = Self.pseudoRandom(count, seed: UInt32(count + 7))
            let wire = MaskedWebSocketClient.frame(
                ByteBuffer(bytes: payload), opcode: MaskedWebSocketClient.binaryOpcode, key: key, allocator: ByteBufferAllocator())
            let header = count < 126 ? 2 : count < 65_536 ? 4 : 10
            #expect(wire.readableBytes == header + 4 + count)
            if count >= 8 {
                #expect(Array(wire.readableBytesView.suffix(count)) != payload, "the payload is masked on the wire")
            }
            try channel.writeInbound(wire)
            let frame = try #require(try channel.readInbound(as: WebSocketFrame.self))
            #expect(frame.fin && frame.opcode == .binary)
            #expect(frame.maskKey == key)
            #expect(Array(frame.unmaskedData.readableBytesView) == payload, "\(count) bytes")
        }
        _ = try channel.finish()
    }

    @Test("RFC 6455 §5.7: \"Hello\" with key 37 fa 21 3d is the RFC's masked text frame but for the opcode")
    func rfcExample() {
        let wire = MaskedWebSocketClient.frame(
            ByteBuffer(string: "Hello"), opcode: 0x1, key: [0x37, 0xFA, 0x21, 0x3D], allocator: ByteBufferAllocator())
        #expect(Array(wire.readableBytesView) == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }
}
