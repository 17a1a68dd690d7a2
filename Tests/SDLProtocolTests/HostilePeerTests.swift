import NIOCore
import SDLProtocol
import Testing

/// An SDL peer that lies, on the wire: every case is golden bytes fed through the same path a
/// connection takes (frame decoder, then control frames or the message assembler, then the RPC
/// reader), and must end in an error with a stable code, holding no memory for the lie.
///
/// Unit tests of the pieces already cover nearby ground, and these do not repeat them:
/// FrameDecoderTests "The payload limit is enforced from the header, before the payload arrives"
/// (a fixed limit) and "A hostile 4 GiB data size is rejected by the default decoder" (a 4 GiB
/// frame `dataSize`); MessageAssemblyTests "Out-of-order, missing and surplus consecutive frames
/// are errors" and "Limits: message size, …" (frames built in code, one message at a time);
/// BSONTests "Document lengths that are negative, too small or huge" (the BSON reader alone);
/// RPCMessageTests "Malformed RPC payloads are errors with stable codes and offsets" (a JSON size
/// 3 bytes too large).
@Suite("Hostile peers")
struct HostilePeerTests {
    static let now = NIODeadline.uptimeNanoseconds(1_000_000_000)

    /// Decodes every whole frame of `hex`; throws the decoder's error.
    static func frames(_ hex: String, decoder: inout SDLFrameDecoder) throws -> [SDLFrame] {
        var buffer = ByteBuffer(hex: hex)
        var frames: [SDLFrame] = []
        while let frame = try decoder.decode(buffer: &buffer) {
            frames.append(frame)
        }
        return frames
    }

    /// Feeds frames to `assembler`; returns, per frame, the completed message or the error code.
    static func assemble(_ frames: [SDLFrame], _ assembler: inout SDLMessageAssembler) -> [Result<SDLMessage?, SDLProtocolError>] {
        frames.map { frame in
            Result { () throws(SDLProtocolError) -> SDLMessage? in try assembler.process(frame, now: now) }
        }
    }

    static func code(_ result: Result<SDLMessage?, SDLProtocolError>) -> SDLProtocolError.Code? {
        if case .failure(let error) = result { return error.code }
        return nil
    }

    @Test("A frame above the MTU a StartServiceACK set is refused from its header, before its payload is buffered")
    func dataSizeAboveMTU() throws {
        var decoder = SDLFrameDecoder()
        // v5 StartServiceACK, session 1: {hashId: 65537, mtu: 1000 (int64), protocolVersion: "5.4.0"}.
        let ack = try Self.frames(
            """
            50 07 02 01 00 00 00 39 00 00 00 00
            39 00 00 00 10 68 61 73 68 49 64 00 01 00 01 00 12 6d 74 75 00 e8 03 00 00 00 00 00 00
            02 70 72 6f 74 6f 63 6f 6c 56 65 72 73 69 6f 6e 00 06 00 00 00 35 2e 34 2e 30 00 00
            """,
            decoder: &decoder
        )
        guard case .startServiceACK(let parameters) = try SDLControlMessage(frame: ack[0]), let mtu = parameters.mtu else {
            Issue.record("not a StartServiceACK with an mtu")
            return
        }
        #expect(mtu == 1000)
        decoder.maximumPayloadSize = Int(mtu)
        #expect(decoder.maximumBufferSize == 1012)

        // Only the 12-byte header of a single frame announcing 1001 bytes has arrived.
        var buffer = ByteBuffer(hex: "51 07 00 01 00 00 03 e9 00 00 00 02")
        #expect {
            _ = try decoder.decode(buffer: &buffer)
        } throws: { error in
            let error = error as! SDLProtocolError
            return error.code == .payloadTooLarge && error.offset == 4 && error.detail.contains("1001")
        }
        #expect(buffer.readableBytes == 12, "nothing consumed")

        // The same lie on a Consecutive Frame, and on a control frame, is refused the same way.
        for header in ["53 07 01 01 00 00 03 e9 00 00 00 02", "50 07 00 01 00 00 03 e9 00 00 00 03"] {
            var buffer = ByteBuffer(hex: header)
            #expect(throws: SDLProtocolError(.payloadTooLarge, "data size 1001 is above the payload limit 1000", offset: 4)) {
                _ = try decoder.decode(buffer: &buffer)
            }
        }
    }

    @Test("A First Frame claiming 4 GB is refused with messageTooLarge and holds nothing; its Consecutive Frames find no message")
    func firstFrameClaimingFourGigabytes() throws {
        var decoder = SDLFrameDecoder()
        var assembler = SDLMessageAssembler()  // 64 MiB per message by default
        let frames = try Self.frames(
            """
            52 07 00 01 00 00 00 08 00 00 00 05  ff ff ff ff 00 00 00 01
            53 07 00 01 00 00 00 04 00 00 00 05  61 62 63 64
            52 07 00 01 00 00 00 08 00 00 00 06  ff ff ff ff ff ff ff ff
            """,
            decoder: &decoder
        )
        #expect(frames.count == 3)
        let results = Self.assemble(frames, &assembler)
        #expect(results.map(Self.code) == [.messageTooLarge, .unexpectedConsecutiveFrame, .messageTooLarge])
        if case .failure(let error) = results[0] {
            #expect(error.detail == "first frame announces 4294967295 bytes, above the limit 67108864")
        }
        #expect(assembler.activeCount == 0)
        #expect(assembler.bufferedBytes == 0)

        // A First Frame whose own data size is 4 GB (not 8) is refused by the header reader.
        var lie = ByteBuffer(hex: "52 07 00 01 ff ff ff ff 00 00 00 07")
        #expect(throws: SDLProtocolError(.invalidFirstFrameSize, "first frame data size is 4294967295, not 8", offset: 4)) {
            _ = try decoder.decode(buffer: &lie)
        }
        #expect(lie.readableBytes == 12)
    }

    @Test("A Consecutive Frame out of order drops its own message only; the rest of the message finds nothing")
    func consecutiveFrameOutOfOrder() throws {
        var decoder = SDLFrameDecoder()
        var assembler = SDLMessageAssembler()
        // Session 1 interleaves message 7 (6 bytes in 3 frames) and message 8 (4 bytes in 2).
        let frames = try Self.frames(
            """
            52 07 00 01 00 00 00 08 00 00 00 07  00 00 00 06 00 00 00 03
            52 07 00 01 00 00 00 08 00 00 00 08  00 00 00 04 00 00 00 02
            53 07 01 01 00 00 00 02 00 00 00 07  aa bb
            53 07 01 01 00 00 00 02 00 00 00 08  01 02
            53 07 03 01 00 00 00 02 00 00 00 07  cc dd
            53 07 02 01 00 00 00 02 00 00 00 07  ee ff
            53 07 00 01 00 00 00 02 00 00 00 08  03 04
            """,
            decoder: &decoder
        )
        let results = Self.assemble(frames, &assembler)
        #expect(results.map(Self.code) == [nil, nil, nil, nil, .consecutiveFrameOutOfOrder, .unexpectedConsecutiveFrame, nil])
        if case .failure(let error) = results[4] {
            #expect(error.detail == "consecutive frame 3 for session 1 message 7, expected 2 or 0")
        }
        guard case .success(let message?) = results[6] else {
            Issue.record("message 8 did not complete: \(results[6])")
            return
        }
        #expect(message.messageID == 8)
        #expect(message.payload == ByteBuffer(hex: "01 02 03 04"))
        #expect(assembler.activeCount == 0)
        #expect(assembler.bufferedBytes == 0)

        // A repeated sequence number (frame info 1 twice) is out of order too.
        let repeated = try Self.frames(
            """
            52 07 00 01 00 00 00 08 00 00 00 09  00 00 00 06 00 00 00 03
            53 07 01 01 00 00 00 02 00 00 00 09  aa bb
            53 07 01 01 00 00 00 02 00 00 00 09  aa bb
            """,
            decoder: &decoder
        )
        #expect(Self.assemble(repeated, &assembler).map(Self.code) == [nil, nil, .consecutiveFrameOutOfOrder])
        #expect(assembler.bufferedBytes == 0)
    }

    @Test("A control frame whose BSON length runs past its payload is a BSON error, not a crash")
    func bsonLengthBeyondBuffer() throws {
        var decoder = SDLFrameDecoder()
        // v5 StartService frames with a 16-byte payload each; the document inside claims:
        let cases: [(String, SDLProtocolError.Code, Int)] = [
            // 256 bytes: more than the payload holds.
            ("00 01 00 00 02 61 00 02 00 00 00 62 00 00 00 00", .bsonTruncated, 0),
            // 2 GiB - 1 bytes.
            ("ff ff ff 7f 02 61 00 02 00 00 00 62 00 00 00 00", .bsonTruncated, 0),
            // -1 bytes (0xffffffff).
            ("ff ff ff ff 02 61 00 02 00 00 00 62 00 00 00 00", .bsonInvalidLength, 0),
            // 16 bytes, but the embedded document "o" at offset 7 claims 2 GiB - 1.
            ("10 00 00 00 03 6f 00 ff ff ff 7f 00 00 00 00 00", .bsonInvalidLength, 7),
            // 16 bytes, but the string "a" at offset 7 claims 2 GiB - 1.
            ("10 00 00 00 02 61 00 ff ff ff 7f 62 00 00 00 00", .bsonInvalidLength, 7),
        ]
        for (document, code, offset) in cases {
            let frames = try Self.frames("50 07 01 00 00 00 00 10 00 00 00 00 " + document, decoder: &decoder)
            #expect(frames.count == 1)
            #expect {
                _ = try SDLControlMessage(frame: frames[0])
            } throws: { error in
                let error = error as! SDLProtocolError
                return error.code == code && error.offset == offset
            }
        }
    }

    @Test("An RPC whose JSON size runs past its payload is rpcJSONSizeMismatch at byte 8, consuming nothing")
    func jsonSizeBeyondPayload() throws {
        var decoder = SDLFrameDecoder()
        var assembler = SDLMessageAssembler()
        // Show requests (function id 13) with the JSON "{}": JSON size 4 GB - 1, and 3 (one too many).
        for jsonSize in ["ff ff ff ff", "00 00 00 03"] {
            let frames = try Self.frames(
                "51 07 00 01 00 00 00 0e 00 00 00 09  00 00 00 0d 00 00 00 09 \(jsonSize) 7b 7d",
                decoder: &decoder
            )
            guard case .success(let message?) = Self.assemble(frames, &assembler).first else {
                Issue.record("the single frame is not a message")
                continue
            }
            var payload = message.payload
            #expect {
                _ = try payload.readSDLRPCMessage()
            } throws: { error in
                let error = error as! SDLProtocolError
                return error.code == .rpcJSONSizeMismatch && error.offset == 8
            }
            #expect(payload.readableBytes == 14, "nothing consumed")
        }

        // The same lie inside a message reassembled from a First Frame and two Consecutive Frames.
        let frames = try Self.frames(
            """
            52 07 00 01 00 00 00 08 00 00 00 0a  00 00 00 0e 00 00 00 02
            53 07 01 01 00 00 00 08 00 00 00 0a  00 00 00 0d 00 00 00 0a
            53 07 00 01 00 00 00 06 00 00 00 0a  00 01 00 00 7b 7d
            """,
            decoder: &decoder
        )
        guard case .success(let message?) = Self.assemble(frames, &assembler).last else {
            Issue.record("the message did not reassemble")
            return
        }
        var payload = message.payload
        #expect(
            throws: SDLProtocolError(.rpcJSONSizeMismatch, "JSON size 65536 is larger than the 2 bytes after the binary header", offset: 8)
        ) {
            _ = try payload.readSDLRPCMessage()
        }
    }
}
