import NIOCore
import SDLProtocol
import Testing

@Suite("Frame header")
struct FrameHeaderTests {
    @Test("The RegisterAppInterface v5 header of docs/protocol.md §c")
    func registerAppInterfaceGolden() throws {
        var buffer = ByteBuffer(hex: "51 07 00 01 00 00 00 f3 00 00 00 01")
        let header = try #require(try buffer.readSDLFrameHeader())
        #expect(header == SDLFrameHeader(version: 5, frameType: .single, serviceType: .rpc, sessionID: 1, dataSize: 0xF3, messageID: 1))
        #expect(buffer.readableBytes == 0)
        var out = ByteBuffer()
        #expect(out.writeSDLFrameHeader(header) == 12)
        #expect(out == ByteBuffer(hex: "51 07 00 01 00 00 00 f3 00 00 00 01"))
    }

    @Test("A v1 header is 8 bytes with no message id")
    func v1Header() throws {
        var buffer = ByteBuffer(hex: "10 07 01 00 00 00 00 20 ff")
        let header = try #require(try buffer.readSDLFrameHeader())
        #expect(header.version == 1)
        #expect(header.frameType == .control)
        #expect(header.frameInfo == 1)
        #expect(header.dataSize == 0x20)
        #expect(header.messageID == 0)
        #expect(header.size == 8)
        #expect(buffer.readableBytes == 1)
    }

    @Test("A v2 frame with the E bit, on the bulk service")
    func v2Frame() throws {
        var buffer = ByteBuffer(hex: "29 0f 00 07 00 00 00 03 00 01 02 03 aa bb cc")
        var decoder = SDLFrameDecoder()
        let frame = try #require(try decoder.decode(buffer: &buffer))
        #expect(
            frame.header
                == SDLFrameHeader(
                    version: 2, isEncrypted: true, frameType: .single, serviceType: .bulkData, sessionID: 7, dataSize: 3, messageID: 0x10203
                ))
        #expect(frame.payload == ByteBuffer(hex: "aa bb cc"))
        var out = ByteBuffer()
        out.writeSDLFrame(frame)
        #expect(out == ByteBuffer(hex: "29 0f 00 07 00 00 00 03 00 01 02 03 aa bb cc"))
    }

    @Test("Half a header reads as nil and consumes nothing")
    func partialHeader() throws {
        var buffer = ByteBuffer(hex: "51 07 00 01 00 00 00")
        #expect(try buffer.readSDLFrameHeader() == nil)
        #expect(buffer.readableBytes == 7)
    }

    @Test(
        "Invalid headers are errors with stable codes",
        arguments: [
            ("01 07 00 01 00 00 00 00 00 00 00 01", SDLProtocolError.Code.unsupportedVersion),
            ("61 07 00 01 00 00 00 00 00 00 00 01", .unsupportedVersion),
            ("f1 07 00 01 00 00 00 00 00 00 00 01", .unsupportedVersion),
            ("54 07 00 01 00 00 00 00 00 00 00 01", .unknownFrameType),
            ("57 07 00 01 00 00 00 00 00 00 00 01", .unknownFrameType),
            ("51 08 00 01 00 00 00 00 00 00 00 01", .unknownServiceType),
            ("51 01 00 01 00 00 00 00 00 00 00 01", .unknownServiceType),
            ("52 07 00 01 00 00 00 09 00 00 00 01", .invalidFirstFrameSize),
            ("12 07 00 01 00 00 00 07", .invalidFirstFrameSize),
        ]
    )
    func rejects(hex: String, code: SDLProtocolError.Code) {
        var buffer = ByteBuffer(hex: hex)
        #expect {
            _ = try buffer.readSDLFrameHeader()
        } throws: { ($0 as? SDLProtocolError)?.code == code }
    }

    @Test("Every valid header round-trips")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let version = UInt8.random(in: 1...5, using: &rng)
            let frameType = SDLFrameType.allCases.randomElement(using: &rng)!
            let header = SDLFrameHeader(
                version: version,
                isEncrypted: Bool.random(using: &rng),
                frameType: frameType,
                serviceType: SDLServiceType.allCases.randomElement(using: &rng)!,
                frameInfo: UInt8.random(in: 0...255, using: &rng),
                sessionID: UInt8.random(in: 0...255, using: &rng),
                dataSize: frameType == .first ? 8 : UInt32.random(in: 0...UInt32.max, using: &rng),
                messageID: UInt32.random(in: 0...UInt32.max, using: &rng)
            )
            var buffer = ByteBuffer()
            #expect(buffer.writeSDLFrameHeader(header) == header.size)
            #expect(try buffer.readSDLFrameHeader() == header)
        }
    }
}
