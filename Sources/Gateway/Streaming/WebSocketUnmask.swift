import NIOCore
import NIOWebSocket

/// Unmasks each WebSocket frame a client sent (RFC 6455 §5.3: every client frame is masked)
/// as it leaves NIO's `WebSocketFrameDecoder`, eight bytes at a time, and clears its `maskKey`,
/// so that `WebSocketFrame.unmaskedData` hands the payload on as it is.
///
/// Without it the streaming WebSockets (README "Projection") unmask through NIO's
/// `ByteBuffer.webSocketUnmask`, which copies the payload (the decoder's slice shares its
/// storage with the bytes read) and then XORs it a byte at a time: most of the gateway's time on
/// a fast video stream. Here the copy and the XOR are one pass (``unmask(_:into:key:indexOffset:)``)
/// into a buffer of the frame's own, which the decoder's storage does not hold on to.
///
/// It sits right after the decoder (``install(on:)``); a frame that passed before it was
/// installed keeps its key and is unmasked the old way, so installing it at any moment is safe.
/// A frame with extension data (no extension the gateway negotiates has any) passes untouched.
final class WebSocketUnmask: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var frame = Self.unwrapInboundIn(data)
        if let key = frame.maskKey, frame.extensionData == nil {
            frame.data = Self.unmasked(frame.data, key: key, allocator: context.channel.allocator)
            frame.maskKey = nil
        }
        context.fireChannelRead(Self.wrapInboundOut(frame))
    }

    /// Puts a ``WebSocketUnmask`` right after the channel's WebSocket frame decoder (which the
    /// upgrade put in its pipeline); returns once it is there, true, or false when the channel
    /// has no such decoder or is closed (its frames are then unmasked by NIO, as before).
    @discardableResult
    static func install(on channel: any Channel) async -> Bool {
        let installed = try? await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            try pipeline.addHandler(WebSocketUnmask(), position: .after(decoder))
        }.get()
        return installed != nil
    }

    /// `masked`'s readable bytes unmasked with `key` from its first byte, in a new buffer.
    static func unmasked(_ masked: ByteBuffer, key: WebSocketMaskingKey, allocator: ByteBufferAllocator) -> ByteBuffer {
        let count = masked.readableBytes
        var result = allocator.buffer(capacity: count)
        masked.withUnsafeReadableBytes { source in
            _ = result.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { destination in
                unmask(source, into: UnsafeMutableRawBufferPointer(rebasing: destination[0..<count]), key: key, indexOffset: 0)
                return count
            }
        }
        return result
    }

    /// Writes `source` XOR the key into `destination` (of the same count), byte `i` with
    /// `key[(i + indexOffset) % 4]` (RFC 6455 §5.3; `indexOffset` ≥ 0): eight bytes at a time against the key
    /// repeated twice (rotated by `indexOffset`), the last up to seven bytes one by one.
    /// Masking and unmasking are the same operation; `source` and `destination` may be the same
    /// memory.
    static func unmask(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer, key: WebSocketMaskingKey, indexOffset: Int
    ) {
        precondition(destination.count == source.count, "unmasking into a buffer of another size")
        let count = source.count
        guard count > 0, let from = source.baseAddress, let to = destination.baseAddress else { return }
        // The key twice from byte `indexOffset` on, in memory order, so that the XOR is right on either endianness.
        var pattern: UInt64 = 0
        withUnsafeMutableBytes(of: &pattern) { bytes in
            for index in 0..<8 { bytes[index] = key[(indexOffset + index) & 3] }
        }
        var offset = 0
        while offset + 32 <= count {
            for lane in stride(from: offset, to: offset + 32, by: 8) {
                let word = from.loadUnaligned(fromByteOffset: lane, as: UInt64.self)
                to.storeBytes(of: word ^ pattern, toByteOffset: lane, as: UInt64.self)
            }
            offset += 32
        }
        while offset + 8 <= count {
            let word = from.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            to.storeBytes(of: word ^ pattern, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        // A multiple of 8 (and so of 4) bytes is done: the tail goes on with the key's first byte.
        withUnsafeBytes(of: pattern) { keyBytes in
            while offset < count {
                let byte = from.load(fromByteOffset: offset, as: UInt8.self) ^ keyBytes[offset & 3]
                to.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
                offset += 1
            }
        }
    }
}
