import Foundation
import NIOCore
import SDLProtocol
import Testing

/// The capture file format of `serve --record` (SDLCapture): golden bytes (computed with
/// Python's `struct`, as docs/capture-format.md shows readers to), round trips in any chunking, and refusals
/// of truncated and garbage input.
@Suite("Capture file format")
struct CaptureFormatTests {
    static let header = SDLCaptureHeader(
        app: "demo", sdlAppID: "demo-app", headUnit: "tcp://127.0.0.1:12345", startMicroseconds: 1_795_475_792_494_428)

    /// `b'SDLCAP\r\n' + struct.pack('>HHq', 1, 59, 1795475792494428)` and three u16-prefixed strings.
    static let headerHex = """
        53 44 4c 43 41 50 0d 0a  00 01  00 3b  00 06 60 f9 c8 d0 7f 5c
        00 04 64 65 6d 6f
        00 08 64 65 6d 6f 2d 61 70 70
        00 15 74 63 70 3a 2f 2f 31 32 37 2e 30 2e 30 2e 31 3a 31 32 33 34 35
        """
    /// `struct.pack('>B3xQI', 1, 2349, 4)` + 4 bytes of a frame header.
    static let sentHex = "01 00 00 00  00 00 00 00 00 00 09 2d  00 00 00 04  50 07 01 00"
    /// `struct.pack('>B3xQI', 6, 1000000, 4) + struct.pack('>I', 3)`.
    static let droppedHex = "06 00 00 00  00 00 00 00 00 0f 42 40  00 00 00 04  00 00 00 03"

    static let records = [
        SDLCaptureRecord(kind: .appToHeadUnit, offsetMicroseconds: 2349, payload: ByteBuffer(bytes: [0x50, 0x07, 0x01, 0x00])),
        SDLCaptureRecord(droppedCount: 3, offsetMicroseconds: 1_000_000),
    ]

    static func file() -> ByteBuffer {
        var bytes = ByteBuffer()
        bytes.writeSDLCaptureHeader(header)
        for record in records { bytes.writeSDLCaptureRecord(record) }
        return bytes
    }

    @Test("The header and records encode to the documented bytes")
    func golden() {
        var header = ByteBuffer()
        #expect(header.writeSDLCaptureHeader(Self.header) == 59)
        #expect(header == ByteBuffer(hex: Self.headerHex))
        var sent = ByteBuffer()
        #expect(sent.writeSDLCaptureRecord(Self.records[0]) == 20)
        #expect(sent == ByteBuffer(hex: Self.sentHex))
        var dropped = ByteBuffer()
        dropped.writeSDLCaptureRecord(Self.records[1])
        #expect(dropped == ByteBuffer(hex: Self.droppedHex))
        #expect(Self.records[1].droppedCount == 3)
    }

    @Test("Decoding the golden bytes gives the values back, fed whole or one byte at a time")
    func roundTrip() throws {
        let decoded = try SDLCaptureDecoder.decode(ByteBuffer(hex: Self.headerHex + Self.sentHex + Self.droppedHex))
        #expect(decoded.header == Self.header)
        #expect(decoded.records == Self.records)

        var decoder = SDLCaptureDecoder()
        var pending = ByteBuffer()
        var items: [SDLCaptureDecoder.Item] = []
        for byte in Self.file().readableBytesView {
            pending.writeInteger(byte)
            while let item = try decoder.next(buffer: &pending) { items.append(item) }
        }
        try decoder.finish(remaining: pending)
        #expect(items == [.header(Self.header)] + Self.records.map { .record($0) })
        #expect(decoder.consumed == Self.file().readableBytes)
    }

    @Test("Connection records carry text; every kind round-trips; an empty file of records is valid")
    func kinds() throws {
        var bytes = ByteBuffer()
        bytes.writeSDLCaptureHeader(SDLCaptureHeader(app: "ünï/../x", sdlAppID: "", headUnit: "ws://h:2020/", startMicroseconds: -5))
        let records = SDLCaptureRecord.Kind.allCases.filter { $0 != .dropped }.enumerated().map { index, kind in
            SDLCaptureRecord(kind: kind, offsetMicroseconds: UInt64(index), text: "detail \(kind)")
        }
        for record in records { bytes.writeSDLCaptureRecord(record) }
        let decoded = try SDLCaptureDecoder.decode(bytes)
        #expect(decoded.header.app == "ünï/../x")
        #expect(decoded.header.startMicroseconds == -5)
        #expect(decoded.records == records)
        #expect(decoded.records[2].text == "detail opened")

        var headerOnly = ByteBuffer()
        headerOnly.writeSDLCaptureHeader(Self.header)
        #expect(try SDLCaptureDecoder.decode(headerOnly).records.isEmpty)
    }

    @Test("Header strings longer than the limit are cut at a character boundary")
    func longStrings() throws {
        let long = String(repeating: "é", count: 700)  // 1400 UTF-8 bytes
        var bytes = ByteBuffer()
        bytes.writeSDLCaptureHeader(SDLCaptureHeader(app: long, sdlAppID: "a", headUnit: "h", startMicroseconds: 0))
        let decoded = try SDLCaptureDecoder.decode(bytes)
        #expect(decoded.header.app == String(repeating: "é", count: 512))
    }

    @Test("Every truncation of a valid file is refused as truncated, at the offset where the cut item starts")
    func truncated() {
        let file = Self.file()
        let headerSize = 59
        // 59 (the header alone) and 79 (header and one record) are whole files.
        for length in 0..<file.readableBytes where length != headerSize && length != headerSize + 20 {
            let cut = file.getSlice(at: 0, length: length)!
            #expect(throws: SDLProtocolError.self) { try SDLCaptureDecoder.decode(cut) }
            do {
                _ = try SDLCaptureDecoder.decode(cut)
            } catch {
                #expect(error.code == .captureTruncated, "length \(length): \(error)")
                let expected = length < headerSize ? 0 : length < headerSize + 20 ? headerSize : headerSize + 20
                #expect(error.offset == expected, "length \(length)")
            }
        }
    }

    @Test("Garbage is refused with a clear code: no magic, another version, unknown kind, hostile lengths, bad UTF-8")
    func garbage() {
        func code(_ hex: String) -> SDLProtocolError.Code? {
            do {
                _ = try SDLCaptureDecoder.decode(ByteBuffer(hex: hex))
                return nil
            } catch {
                return error.code
            }
        }
        // A raw SDL stream (StartService) is not a capture file, even the first byte tells.
        #expect(code("50 07 01 00 00 00 00 20") == .captureInvalidMagic)
        #expect(code("00") == .captureInvalidMagic)
        #expect(code("53 44 4c") == .captureTruncated)
        // Version 2.
        #expect(code("53 44 4c 43 41 50 0d 0a 00 02 00 1a 00 00 00 00 00 00 00 00 00 00 00 00 00 00") == .captureUnsupportedVersion)
        // A header length shorter than its fixed part.
        #expect(code("53 44 4c 43 41 50 0d 0a 00 01 00 04 00 00 00 00 00 00 00 00 00 00 00 00 00 00") == .captureInvalidRecord)
        // A string running past the header length.
        #expect(code("53 44 4c 43 41 50 0d 0a 00 01 00 1a 00 00 00 00 00 00 00 00 00 05 00 00 00 00") == .captureInvalidRecord)
        // A string that is not UTF-8.
        #expect(code("53 44 4c 43 41 50 0d 0a 00 01 00 1b 00 00 00 00 00 00 00 00 00 01 ff 00 00 00 00") == .captureInvalidRecord)
        let emptyHeader = "53 44 4c 43 41 50 0d 0a 00 01 00 1a 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
        #expect(code(emptyHeader) == nil)
        // Kind 9, kind 0.
        #expect(code(emptyHeader + "09 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00") == .captureInvalidRecord)
        #expect(code(emptyHeader + "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00") == .captureInvalidRecord)
        // A 4 GiB record length is refused before anything is buffered.
        #expect(code(emptyHeader + "02 00 00 00 00 00 00 00 00 00 00 00 ff ff ff ff") == .captureInvalidRecord)
        // A dropped record whose payload is not a u32.
        #expect(code(emptyHeader + "06 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 07") == .captureInvalidRecord)
    }

    @Test(
        "Random bytes after the magic never crash the decoder: each file decodes, or is refused with a capture error at an offset inside it, the same whole and byte by byte",
        arguments: 0..<4)
    func fuzz(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var refused = 0
        for _ in 0..<500 {
            var bytes = Self.file()
            let count = Int(random.next() % 80)
            for _ in 0..<count {
                let index = 8 + Int(random.next() % UInt64(bytes.readableBytes - 8))
                bytes.setInteger(UInt8(truncatingIfNeeded: random.next()), at: index)
            }
            let whole = Result { () throws(SDLProtocolError) in try SDLCaptureDecoder.decode(bytes) }
            #expect(whole.map(\.records) == Self.decodeByteByByte(bytes).map(\.records))
            if case .failure(let error) = whole {
                refused += 1
                #expect(error.code.rawValue.hasPrefix("capture"), "\(error)")
                #expect((0...bytes.readableBytes).contains(error.offset ?? -1), "\(error)")
            }
        }
        // Most mutations hit a length, a kind or a string: the decoder must notice some of them.
        #expect(refused > 0)
    }

    /// The records of `bytes` fed to the decoder one byte at a time.
    static func decodeByteByByte(_ bytes: ByteBuffer) -> Result<(header: SDLCaptureHeader, records: [SDLCaptureRecord]), SDLProtocolError> {
        var decoder = SDLCaptureDecoder()
        var pending = ByteBuffer()
        var records: [SDLCaptureRecord] = []
        do throws(SDLProtocolError) {
            for byte in bytes.readableBytesView {
                pending.writeInteger(byte)
                while let item = try decoder.next(buffer: &pending) {
                    if case .record(let record) = item { records.append(record) }
                }
            }
            try decoder.finish(remaining: pending)
            return .success((decoder.header!, records))
        } catch {
            return .failure(error)
        }
    }

    @Test("The capture fuzz target's seeds (FuzzTesting/Seeds/FuzzCaptureDecoder) are what this encoder writes, after the read-size byte")
    func fuzzSeeds() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzTesting/Seeds")
        func seed(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: seeds.appendingPathComponent(path))) }
        // The two frame seeds of a v5 StartService and its ACK (after their two selector bytes).
        let startService = ByteBuffer(bytes: try seed("FuzzFrameDecoder/start-service-v5").dropFirst(2))
        let startServiceACK = ByteBuffer(bytes: try seed("FuzzFrameDecoder/start-service-ack-v5").dropFirst(2))
        func file(_ records: [SDLCaptureRecord]) -> [UInt8] {
            var bytes = ByteBuffer()
            bytes.writeSDLCaptureHeader(Self.header)
            for record in records { bytes.writeSDLCaptureRecord(record) }
            return Array(bytes.readableBytesView)
        }
        let session = file([
            SDLCaptureRecord(kind: .opened, offsetMicroseconds: 12, text: "tcp://127.0.0.1:12345"),
            SDLCaptureRecord(kind: .appToHeadUnit, offsetMicroseconds: 2349, payload: startService),
            SDLCaptureRecord(kind: .headUnitToApp, offsetMicroseconds: 4120, payload: startServiceACK),
            SDLCaptureRecord(droppedCount: 3, offsetMicroseconds: 5000),
            SDLCaptureRecord(kind: .closed, offsetMicroseconds: 6001, text: ""),
        ])
        #expect(try seed("FuzzCaptureDecoder/session") == [7] + session)
        // Cut 30 bytes into the ACK's payload.
        let truncated = try seed("FuzzCaptureDecoder/session-truncated")
        #expect(truncated == [0] + session.prefix(59 + 37 + 16 + 40 + 16 + 30))
        #expect(throws: SDLProtocolError.self) { try SDLCaptureDecoder.decode(ByteBuffer(bytes: truncated.dropFirst())) }
        let lost = file([
            SDLCaptureRecord(kind: .opened, offsetMicroseconds: 5, text: "tcp://127.0.0.1:12345"),
            SDLCaptureRecord(kind: .lost, offsetMicroseconds: 900, text: "the head unit closed the connection"),
        ])
        #expect(try seed("FuzzCaptureDecoder/lost") == [63] + lost)
    }

    @Test("hasMagic needs the whole magic")
    func magic() {
        #expect(SDLCapture.hasMagic(ByteBuffer(hex: Self.headerHex)))
        #expect(!SDLCapture.hasMagic(ByteBuffer(hex: "53 44 4c 43 41 50 0d")))
        #expect(!SDLCapture.hasMagic(ByteBuffer(hex: "10 07 01 00 00 00 00 00")))
    }
}
