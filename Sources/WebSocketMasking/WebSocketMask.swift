import NIOCore
import NIOWebSocket

/// RFC 6455 §5.3's masking, eight bytes at a time: what the gateway's streaming WebSockets use
/// to unmask the frames a client sent, and what the benchmark's WebSocket client uses to mask the
/// frames it sends, as a browser does. Masking and unmasking are the same operation.
///
/// NIO's `ByteBuffer.webSocketMask` (behind `WebSocketFrame.unmaskedData` and
/// `WebSocketFrameEncoder`) XORs a byte at a time; on a fast video stream that loop was most of
/// the time of whichever end ran it (BENCHMARKS.md).
public enum WebSocketMask {
    /// `source`'s readable bytes XOR `key` from its first byte, in a new buffer (one pass: the
    /// copy and the XOR).
    public static func masked(_ source: ByteBuffer, key: WebSocketMaskingKey, allocator: ByteBufferAllocator) -> ByteBuffer {
        var result = allocator.buffer(capacity: source.readableBytes)
        write(source, maskedWith: key, to: &result)
        return result
    }

    /// Appends `source`'s readable bytes XOR `key` (from its first byte) to `destination`.
    public static func write(_ source: ByteBuffer, maskedWith key: WebSocketMaskingKey, to destination: inout ByteBuffer) {
        let count = source.readableBytes
        source.withUnsafeReadableBytes { source in
            _ = destination.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { target in
                apply(source, into: UnsafeMutableRawBufferPointer(rebasing: target[0..<count]), key: key, indexOffset: 0)
                return count
            }
        }
    }

    /// Writes `source` XOR the key into `destination` (of the same count), byte `i` with
    /// `key[(i + indexOffset) % 4]` (RFC 6455 §5.3; `indexOffset` ≥ 0): eight bytes at a time against the key
    /// repeated twice (rotated by `indexOffset`), the last up to seven bytes one by one.
    /// `source` and `destination` may be the same memory.
    public static func apply(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer, key: WebSocketMaskingKey, indexOffset: Int
    ) {
        precondition(destination.count == source.count, "masking into a buffer of another size")
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
        // A multiple of 8 (and so of 4) bytes is done: the tail goes on with the pattern's first bytes.
        withUnsafeBytes(of: pattern) { keyBytes in
            while offset < count {
                let byte = from.load(fromByteOffset: offset, as: UInt8.self) ^ keyBytes[offset & 3]
                to.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
                offset += 1
            }
        }
    }
}
