import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
import WebSocketMasking

@testable import Gateway

/// ``WebSocketUnmask``: the word-at-a-time unmasking against RFC 6455 §5.7's examples and a
/// byte-at-a-time reference (every length 0…70, every key offset, unaligned starts, in place),
/// and the handler behind NIO's frame decoder on a test channel.
@Suite("WebSocket frames unmasked word by word")
struct WebSocketUnmaskTests {
    /// RFC 6455 §5.3, one byte at a time: what the word-at-a-time code must equal.
    static func reference(_ bytes: [UInt8], key: [UInt8], indexOffset: Int) -> [UInt8] {
        bytes.enumerated().map { $0.element ^ key[($0.offset + indexOffset) % 4] }
    }

    static func pseudoRandom(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static let keys: [[UInt8]] = [
        [0x37, 0xFA, 0x21, 0x3D], [0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0xFF], [1, 2, 3, 4], [0x80, 0x7F, 0x00, 0xC3],
    ]

    /// `bytes` XOR `key` by `WebSocketMask.apply`, the source
    /// starting `misalignment` bytes into its allocation.
    static func unmasked(_ bytes: [UInt8], key: [UInt8], indexOffset: Int, misalignment: Int = 0) -> [UInt8] {
        let source = [UInt8](repeating: 0xEE, count: misalignment) + bytes
        var destination = [UInt8](repeating: 0, count: bytes.count + misalignment)
        source.withUnsafeBytes { source in
            destination.withUnsafeMutableBytes { destination in
                WebSocketMask.apply(
                    UnsafeRawBufferPointer(rebasing: source[misalignment...]),
                    into: UnsafeMutableRawBufferPointer(rebasing: destination[misalignment...]),
                    key: WebSocketMaskingKey(key)!, indexOffset: indexOffset)
            }
        }
        return Array(destination[misalignment...])
    }

    @Test("RFC 6455 §5.7: the masked \"Hello\" (key 37 fa 21 3d) unmasks to \"Hello\", and masks back")
    func rfcExample() {
        let masked: [UInt8] = [0x7F, 0x9F, 0x4D, 0x51, 0x58]
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        #expect(Self.unmasked(masked, key: key, indexOffset: 0) == Array("Hello".utf8))
        #expect(Self.unmasked(Array("Hello".utf8), key: key, indexOffset: 0) == masked)
        let buffer = WebSocketMask.masked(ByteBuffer(bytes: masked), key: WebSocketMaskingKey(key)!, allocator: ByteBufferAllocator())
        #expect(String(buffer: buffer) == "Hello")
    }

    @Test("Every length 0…70, every key offset, unaligned starts: equal to the byte-at-a-time reference and to NIO's")
    func everyLengthAndOffset() {
        for key in Self.keys {
            for count in 0...70 {
                let bytes = Self.pseudoRandom(count, seed: UInt32(count + 1))
                for indexOffset in 0..<8 {
                    let expected = Self.reference(bytes, key: key, indexOffset: indexOffset)
                    for misalignment in [0, 1, 3, 7] {
                        let got = Self.unmasked(bytes, key: key, indexOffset: indexOffset, misalignment: misalignment)
                        #expect(got == expected, "key \(key), \(count) bytes, offset \(indexOffset), misaligned by \(misalignment)")
                    }
                    var nio = ByteBuffer(bytes: bytes)
                    nio.webSocketUnmask(WebSocketMaskingKey(key)!, indexOffset: indexOffset)
                    #expect(Array(nio.readableBytesView) == expected)
                }
            }
        }
    }

    @Test("In place (source and destination the same memory), and a readable slice that does not start at its buffer's start")
    func inPlaceAndSlices() {
        let key: [UInt8] = [0x80, 0x7F, 0x00, 0xC3]
        for count in [0, 1, 7, 8, 9, 31, 32, 33, 65, 4_099] {
            let bytes = Self.pseudoRandom(count, seed: 9)
            var inPlace = bytes
            inPlace.withUnsafeMutableBytes { memory in
                WebSocketMask.apply(UnsafeRawBufferPointer(memory), into: memory, key: WebSocketMaskingKey(key)!, indexOffset: 2)
            }
            #expect(inPlace == Self.reference(bytes, key: key, indexOffset: 2))

            var buffer = ByteBuffer(bytes: [9, 9, 9] + bytes + [9])
            buffer.moveReaderIndex(forwardBy: 3)
            let slice = buffer.readSlice(length: count)!
            let unmasked = WebSocketMask.masked(slice, key: WebSocketMaskingKey(key)!, allocator: ByteBufferAllocator())
            #expect(Array(unmasked.readableBytesView) == Self.reference(bytes, key: key, indexOffset: 0))
            #expect(Array(slice.readableBytesView) == bytes, "the masked buffer is left as it was")
        }
    }

    // MARK: The handler

    /// A client frame on the wire (RFC 6455 §5.2): FIN, the opcode, the mask bit and length, the key, the masked payload.
    static func wireFrame(_ payload: [UInt8], opcode: UInt8 = 0x2, fin: Bool = true, key: [UInt8]) -> [UInt8] {
        var header: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126: header.append(0x80 | UInt8(payload.count))
        case ..<65_536: header += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: header += [0x80 | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        return header + key + reference(payload, key: key, indexOffset: 0)
    }

    /// A channel as an upgraded WebSocket's: NIO's frame decoder, then (if `install`) the unmask.
    static func channel(install: Bool) async throws -> NIOAsyncTestingChannel {
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 20)))
        }
        if install {
            let installed = await WebSocketUnmask.install(on: channel)
            #expect(installed)
        }
        return channel
    }

    static func next(_ channel: NIOAsyncTestingChannel) async throws -> WebSocketFrame {
        let frame = try await channel.readInbound(as: WebSocketFrame.self)
        return try #require(frame)
    }

    @Test("Behind the decoder: RFC 6455 §5.7's masked \"Hello\" and a 200 kB frame in 1,500-byte reads come out unmasked, without a key")
    func behindTheDecoder() async throws {
        let channel = try await Self.channel(install: true)
        try await channel.writeInbound(ByteBuffer(bytes: [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]))
        let hello = try await Self.next(channel)
        #expect(hello.maskKey == nil)
        #expect(hello.opcode == .text && hello.fin)
        #expect(String(buffer: hello.data) == "Hello")
        #expect(String(buffer: hello.unmaskedData) == "Hello")

        let payload = Self.pseudoRandom(200_000, seed: 3)
        let wire = Self.wireFrame(payload, key: [0xA1, 0x02, 0xB3, 0x04])
        for start in stride(from: 0, to: wire.count, by: 1_500) {
            try await channel.writeInbound(ByteBuffer(bytes: wire[start..<min(start + 1_500, wire.count)]))
        }
        let frame = try await Self.next(channel)
        #expect(frame.maskKey == nil)
        #expect(frame.opcode == .binary)
        #expect(Array(frame.data.readableBytesView) == payload)
        let rest = try await channel.readInbound(as: WebSocketFrame.self)
        #expect(rest == nil)
        _ = try await channel.finish()
    }

    @Test("Fragments and control frames are unmasked each on its own; a frame read before the install keeps its key and unmasks as before")
    func fragmentsAndEarlyFrames() async throws {
        let channel = try await Self.channel(install: false)
        let early = Self.pseudoRandom(33, seed: 5)
        try await channel.writeInbound(ByteBuffer(bytes: Self.wireFrame(early, key: [1, 2, 3, 4])))
        let installed = await WebSocketUnmask.install(on: channel)
        #expect(installed)
        let first = Self.pseudoRandom(70, seed: 6)
        let second = Self.pseudoRandom(3, seed: 7)
        try await channel.writeInbound(
            ByteBuffer(
                bytes: Self.wireFrame(first, fin: false, key: [9, 8, 7, 6]) + Self.wireFrame([1, 2], opcode: 0x9, key: [5, 5, 5, 5])
                    + Self.wireFrame(second, opcode: 0x0, key: [0xFE, 0x01, 0xFE, 0x01])))

        let before = try await Self.next(channel)
        #expect(before.maskKey != nil)
        #expect(Array(before.unmaskedData.readableBytesView) == early)
        let fragment = try await Self.next(channel)
        #expect(fragment.maskKey == nil && !fragment.fin && fragment.opcode == .binary)
        #expect(Array(fragment.data.readableBytesView) == first)
        let ping = try await Self.next(channel)
        #expect(ping.opcode == .ping && ping.maskKey == nil)
        #expect(Array(ping.data.readableBytesView) == [1, 2])
        let last = try await Self.next(channel)
        #expect(last.opcode == .continuation && last.fin && last.maskKey == nil)
        #expect(Array(last.data.readableBytesView) == second)
        _ = try await channel.finish()
    }

    @Test("A channel without a WebSocket frame decoder: nothing installed")
    func noDecoder() async throws {
        let channel = NIOAsyncTestingChannel()
        let installed = await WebSocketUnmask.install(on: channel)
        #expect(!installed)
        _ = try await channel.finish()
    }
}
