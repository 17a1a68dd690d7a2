import NIOCore
import NIOTestUtils
import SDLProtocol
import Testing

@Suite("Frame decoder")
struct FrameDecoderTests {
    static func frame(
        version: UInt8 = 5, type: SDLFrameType = .single, service: SDLServiceType = .rpc, info: UInt8 = 0, session: UInt8 = 1,
        message: UInt32 = 1, payload: [UInt8]
    ) -> SDLFrame {
        SDLFrame(
            header: SDLFrameHeader(
                version: version, frameType: type, serviceType: service, frameInfo: info, sessionID: session, dataSize: 0,
                messageID: message),
            payload: ByteBuffer(bytes: payload)
        )
    }

    static func bytes(_ frames: [SDLFrame]) -> ByteBuffer {
        var buffer = ByteBuffer()
        for frame in frames { buffer.writeSDLFrame(frame) }
        return buffer
    }

    @Test("Byte by byte, all at once and shuffled (ByteToMessageDecoderVerifier)")
    func verifier() throws {
        let frames = [
            Self.frame(version: 1, type: .control, service: .rpc, info: 1, session: 0, payload: []),
            Self.frame(payload: Array("{\"a\":1}".utf8)),
            Self.frame(version: 2, service: .bulkData, message: 9, payload: Array(repeating: 0xAB, count: 300)),
            Self.frame(type: .first, message: 3, payload: [0, 0, 0, 3, 0, 0, 0, 1]),
            Self.frame(type: .consecutive, message: 3, payload: [1, 2, 3]),
            Self.frame(type: .control, service: .control, info: 0xFF, message: 77, payload: []),
        ]
        let pairs = frames.map { (Self.bytes([$0]), [$0]) }
        try ByteToMessageDecoderVerifier.verifyDecoder(inputOutputPairs: pairs) { SDLFrameDecoder() }
    }

    @Test("Many frames in one read all come out; a half frame waits without consuming")
    func incremental() throws {
        let frames = (1...5).map { Self.frame(message: UInt32($0), payload: Array(repeating: UInt8($0), count: $0 * 10)) }
        var buffer = Self.bytes(frames)
        let last = buffer.readSlice(length: buffer.readableBytes)!
        var stream = last.getSlice(at: last.readerIndex, length: last.readableBytes - 7)!
        var decoder = SDLFrameDecoder()
        var decoded: [SDLFrame] = []
        while let frame = try decoder.decode(buffer: &stream) { decoded.append(frame) }
        #expect(decoded == Array(frames.prefix(4)))
        let remaining = stream.readableBytes
        #expect(try decoder.decode(buffer: &stream) == nil)
        #expect(stream.readableBytes == remaining)
        var rest = last.getSlice(at: last.readerIndex + last.readableBytes - 7, length: 7)!
        stream.writeBuffer(&rest)
        #expect(try decoder.decode(buffer: &stream) == frames[4])
        #expect(stream.readableBytes == 0)
    }

    @Test("The payload limit is enforced from the header, before the payload arrives")
    func limitBeforeBuffering() throws {
        var decoder = SDLFrameDecoder(maximumPayloadSize: 1488)
        // Only the header of a frame announcing 1489 bytes: rejected at once.
        var buffer = ByteBuffer(hex: "51 07 00 01 00 00 05 d1 00 00 00 01")
        #expect {
            _ = try decoder.decode(buffer: &buffer)
        } throws: { ($0 as? SDLProtocolError)?.code == .payloadTooLarge }
        // Exactly the limit is fine.
        var ok = Self.bytes([Self.frame(payload: Array(repeating: 1, count: 1488))])
        #expect(try decoder.decode(buffer: &ok)?.payload.readableBytes == 1488)
        // The limit can move, e.g. to a v5 StartServiceACK's mtu.
        decoder.maximumPayloadSize = 1000
        var big = Self.bytes([Self.frame(type: .control, service: .control, payload: Array(repeating: 1, count: 1001))])
        #expect(throws: SDLProtocolError.self) { _ = try decoder.decode(buffer: &big) }
        #expect(decoder.maximumBufferSize == 1012)
    }

    @Test("A hostile 4 GiB data size is rejected by the default decoder")
    func hostileLength() {
        var decoder = SDLFrameDecoder()
        var buffer = ByteBuffer(hex: "53 07 00 01 ff ff ff ff 00 00 00 01 00")
        #expect {
            _ = try decoder.decode(buffer: &buffer)
        } throws: { error in
            let error = error as! SDLProtocolError
            return error.code == .payloadTooLarge && error.offset == 4
        }
    }
}
