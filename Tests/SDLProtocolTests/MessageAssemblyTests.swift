import NIOCore
import SDLProtocol
import Testing

@Suite("Multi-frame messages")
struct MessageAssemblyTests {
    static let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000)

    static func message(size: Int, messageID: UInt32 = 5, service: SDLServiceType = .rpc) -> SDLMessage {
        SDLMessage(
            version: 5,
            serviceType: service,
            sessionID: 3,
            messageID: messageID,
            payload: ByteBuffer(bytes: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        )
    }

    @Test("A message of 257 consecutive frames numbers them 1…255, 1, then 0 (golden)")
    func wrapsPast255() throws {
        let message = Self.message(size: 257 * 4)
        let frames = Array(SDLMessageFragmenter(message: message, maximumPayloadSize: 4))
        #expect(frames.count == 258)
        var stream = ByteBuffer()
        frames.forEach { stream.writeSDLFrame($0) }
        // First frame: v5, E=0, type 2, RPC, session 3, size 8, message 5; total 1028, 257 frames.
        #expect(stream.getSlice(at: 0, length: 20) == ByteBuffer(hex: "52 07 00 03 00 00 00 08 00 00 00 05 00 00 04 04 00 00 01 01"))
        #expect(frames.dropFirst().map(\.header.frameInfo) == Array(UInt8(1)...UInt8(255)) + [1, 0])
        // Consecutive frame 255 and the one after it on the wire.
        #expect(stream.getSlice(at: 20 + 254 * 16, length: 4) == ByteBuffer(hex: "53 07 ff 03"))
        #expect(stream.getSlice(at: 20 + 255 * 16, length: 4) == ByteBuffer(hex: "53 07 01 03"))
        #expect(stream.getSlice(at: 20 + 256 * 16, length: 12) == ByteBuffer(hex: "53 07 00 03 00 00 00 04 00 00 00 05"))

        var decoder = SDLFrameDecoder()
        var assembler = SDLMessageAssembler()
        var outputs: [SDLMessage] = []
        while let frame = try decoder.decode(buffer: &stream) {
            if let done = try assembler.process(frame, now: Self.t0) { outputs.append(done) }
        }
        #expect(outputs == [message])
        #expect(assembler.activeCount == 0)
        #expect(assembler.bufferedBytes == 0)
    }

    @Test("A payload that fits is one single frame")
    func single() throws {
        let message = Self.message(size: 1488)
        let frames = Array(SDLMessageFragmenter(message: message, maximumPayloadSize: 1488))
        #expect(frames.count == 1)
        #expect(frames[0].header.frameType == .single)
        var assembler = SDLMessageAssembler()
        #expect(try assembler.process(frames[0], now: Self.t0) == message)
    }

    @Test("Fragmentation round-trips at every MTU, interleaved across messages")
    func roundTripInterleaved() throws {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<200 {
            let mtu = Int.random(in: 1...64, using: &rng)
            let messages = (0..<3).map { Self.message(size: Int.random(in: 1...600, using: &rng), messageID: UInt32($0 + 1)) }
            var iterators = messages.map { SDLMessageFragmenter(message: $0, maximumPayloadSize: mtu).makeIterator() }
            var assembler = SDLMessageAssembler()
            var done: [SDLMessage] = []
            var live = Set(0..<3)
            while let index = live.randomElement(using: &rng) {
                guard let frame = iterators[index].next() else { live.remove(index); continue }
                if let message = try assembler.process(frame, now: Self.t0) { done.append(message) }
            }
            #expect(done.sorted { $0.messageID < $1.messageID } == messages)
        }
    }

    static func frames(_ message: SDLMessage, mtu: Int) -> [SDLFrame] {
        Array(SDLMessageFragmenter(message: message, maximumPayloadSize: mtu))
    }

    static func expectError(_ code: SDLProtocolError.Code, _ body: () throws -> Void) {
        #expect {
            try body()
        } throws: { ($0 as? SDLProtocolError)?.code == code }
    }

    @Test("Out-of-order, missing and surplus consecutive frames are errors")
    func sequenceErrors() throws {
        let frames = Self.frames(Self.message(size: 40), mtu: 10)  // first + 4 consecutive
        var assembler = SDLMessageAssembler()
        Self.expectError(.unexpectedConsecutiveFrame) { _ = try assembler.process(frames[1], now: Self.t0) }

        _ = try assembler.process(frames[0], now: Self.t0)
        _ = try assembler.process(frames[1], now: Self.t0)
        Self.expectError(.consecutiveFrameOutOfOrder) { _ = try assembler.process(frames[3], now: Self.t0) }
        #expect(assembler.activeCount == 0)
        #expect(assembler.bufferedBytes == 0)

        // Last frame too early: fewer frames than announced.
        _ = try assembler.process(frames[0], now: Self.t0)
        _ = try assembler.process(frames[1], now: Self.t0)
        Self.expectError(.reassemblySizeMismatch) { _ = try assembler.process(frames[4], now: Self.t0) }

        // A frame beyond the announced count.
        _ = try assembler.process(frames[0], now: Self.t0)
        for frame in frames[1...3] { _ = try assembler.process(frame, now: Self.t0) }
        var extra = frames[3]
        extra.header.frameInfo = 4
        Self.expectError(.reassemblySizeMismatch) { _ = try assembler.process(extra, now: Self.t0) }

        // More bytes than the total size.
        _ = try assembler.process(frames[0], now: Self.t0)
        var fat = frames[1]
        fat.payload = ByteBuffer(bytes: Array(repeating: 0, count: 41))
        Self.expectError(.reassemblySizeMismatch) { _ = try assembler.process(fat, now: Self.t0) }

        // A second First Frame for the same key.
        _ = try assembler.process(frames[0], now: Self.t0)
        Self.expectError(.duplicateFirstFrame) { _ = try assembler.process(frames[0], now: Self.t0) }
        #expect(assembler.activeCount == 0)
        #expect(assembler.bufferedBytes == 0)
    }

    @Test("Limits: message size, concurrent reassemblies, buffered bytes")
    func limits() throws {
        var assembler = SDLMessageAssembler(
            configuration: .init(maximumMessageSize: 100, maximumConcurrentMessages: 2, maximumBufferedBytes: 150))
        Self.expectError(.messageTooLarge) { _ = try assembler.process(Self.frames(Self.message(size: 101), mtu: 50)[0], now: Self.t0) }

        let a = Self.frames(Self.message(size: 100, messageID: 1), mtu: 60)
        let b = Self.frames(Self.message(size: 100, messageID: 2), mtu: 60)
        let c = Self.frames(Self.message(size: 100, messageID: 3), mtu: 60)
        _ = try assembler.process(a[0], now: Self.t0)
        _ = try assembler.process(b[0], now: Self.t0)
        Self.expectError(.reassemblyLimitExceeded) { _ = try assembler.process(c[0], now: Self.t0) }
        _ = try assembler.process(a[1], now: Self.t0)
        _ = try assembler.process(b[1], now: Self.t0)
        #expect(assembler.bufferedBytes == 120)
        // 120 buffered + 40 would pass 150: that message is dropped, the other goes on.
        Self.expectError(.reassemblyLimitExceeded) { _ = try assembler.process(a[2], now: Self.t0) }
        #expect(assembler.bufferedBytes == 60)
        #expect(assembler.activeCount == 1)
        #expect(try assembler.process(b[2], now: Self.t0)?.payload.readableBytes == 100)
        #expect(assembler.bufferedBytes == 0)
    }

    @Test("Hostile first frames: zero size, more frames than bytes, wrong length")
    func hostileFirstFrames() throws {
        var assembler = SDLMessageAssembler()
        let header = SDLFrameHeader(version: 5, frameType: .first, serviceType: .rpc, sessionID: 1, dataSize: 8, messageID: 1)
        Self.expectError(.invalidFrame) {
            _ = try assembler.process(SDLFrame(header: header, payload: ByteBuffer(hex: "00000000 00000001")), now: Self.t0)
        }
        Self.expectError(.invalidFrame) {
            _ = try assembler.process(SDLFrame(header: header, payload: ByteBuffer(hex: "00000004 00000005")), now: Self.t0)
        }
        Self.expectError(.invalidFirstFrameSize) {
            _ = try assembler.process(SDLFrame(header: header, payload: ByteBuffer(hex: "00000004")), now: Self.t0)
        }
        Self.expectError(.invalidFrame) {
            _ = try assembler.process(
                SDLFrame(
                    header: SDLFrameHeader(version: 5, frameType: .control, serviceType: .control, sessionID: 1, dataSize: 0),
                    payload: ByteBuffer()), now: Self.t0)
        }
    }

    @Test("Stale reassemblies expire with the injected clock")
    func expiry() throws {
        var assembler = SDLMessageAssembler()
        let a = Self.frames(Self.message(size: 30, messageID: 1), mtu: 10)
        let b = Self.frames(Self.message(size: 30, messageID: 2), mtu: 10)
        _ = try assembler.process(a[0], now: Self.t0)
        _ = try assembler.process(a[1], now: Self.t0)
        _ = try assembler.process(b[0], now: Self.t0 + .seconds(5))
        #expect(assembler.nextExpiry == Self.t0 + .seconds(10))
        #expect(assembler.expire(now: Self.t0 + .milliseconds(9999)).isEmpty)
        #expect(assembler.expire(now: Self.t0 + .seconds(10)) == [.init(sessionID: 3, messageID: 1)])
        #expect(assembler.activeCount == 1)
        #expect(assembler.bufferedBytes == 0)
        Self.expectError(.unexpectedConsecutiveFrame) { _ = try assembler.process(a[2], now: Self.t0 + .seconds(10)) }
        assembler.removeAll(sessionID: 3)
        #expect(assembler.activeCount == 0)
    }
}
