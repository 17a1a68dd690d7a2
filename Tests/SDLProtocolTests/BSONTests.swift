import NIOCore
import Testing

@testable import SDLProtocol

/// Reads `bytes` as one BSON document and returns the error, or `nil` on success.
private func bsonError(_ bytes: [UInt8], maximumDepth: Int = BSONDocument.defaultMaximumDepth) -> SDLProtocolError? {
    var buffer = ByteBuffer(bytes: bytes)
    do {
        _ = try buffer.readBSONDocument(maximumDepth: maximumDepth)
        return nil
    } catch {
        #expect(buffer.readerIndex == 0, "nothing is consumed on error")
        return error
    }
}

private func bsonError(hex: String) -> SDLProtocolError? {
    bsonError([UInt8](hex: hex))
}

private func encode(_ document: BSONDocument) -> [UInt8] {
    var buffer = ByteBuffer()
    let written = buffer.writeBSONDocument(document)
    #expect(written == buffer.readableBytes)
    return Array(buffer.readableBytesView)
}

/// `{"protocolVersion": "5.4.0"}`, the StartService payload of docs/protocol.md §a.
private let startServiceBSON = """
    20 00 00 00 02 70 72 6f 74 6f 63 6f 6c 56 65 72 73 69 6f 6e 00 06 00 00 00 35 2e 34 2e 30 00 00
    """

/// One element of every supported type, laid out by hand (74 bytes).
private let allTypesHex = """
    4a 00 00 00
    08 61 00 01
    0a 6e 00
    01 64 00 00 00 00 00 00 00 f0 3f
    10 69 00 ff ff ff ff
    12 6c 00 00 00 00 00 01 00 00 00
    02 73 00 03 00 00 00 c3 a9 00
    04 78 00 0c 00 00 00 10 30 00 07 00 00 00 00
    03 6f 00 05 00 00 00 00
    00
    """

private let allTypesDocument: BSONDocument = [
    "a": true,
    "n": nil,
    "d": .double(1.0),
    "i": .int32(-1),
    "l": .int64(1 << 32),
    "s": "é",
    "x": [.int32(7)],
    "o": .document([:]),
]

@Suite("BSON")
struct BSONTests {
    // MARK: Golden vectors

    @Test("The StartService protocolVersion document encodes and decodes byte for byte")
    func startServiceGolden() throws {
        let document: BSONDocument = ["protocolVersion": "5.4.0"]
        #expect(encode(document) == [UInt8](hex: startServiceBSON))
        var buffer = ByteBuffer(hex: startServiceBSON)
        #expect(try buffer.readBSONDocument() == document)
        #expect(buffer.readableBytes == 0)
    }

    @Test("Every supported type has the documented encoding")
    func allTypesGolden() throws {
        #expect(encode(allTypesDocument) == [UInt8](hex: allTypesHex))
        var buffer = ByteBuffer(hex: allTypesHex)
        #expect(try buffer.readBSONDocument() == allTypesDocument)
    }

    @Test("The empty document is five bytes")
    func emptyDocument() throws {
        #expect(encode(BSONDocument()) == [5, 0, 0, 0, 0])
        var buffer = ByteBuffer(bytes: [5, 0, 0, 0, 0])
        #expect(try buffer.readBSONDocument().isEmpty)
    }

    @Test("Reading stops at the end of the document and leaves what follows")
    func trailingBytesAreLeft() throws {
        var buffer = ByteBuffer(hex: startServiceBSON + " aa bb")
        _ = try buffer.readBSONDocument()
        #expect(Array(buffer.readableBytesView) == [0xAA, 0xBB])
    }

    @Test("Element order and duplicate keys are kept; the subscript sees the first")
    func orderAndSubscript() throws {
        var document = BSONDocument([("b", .int32(1)), ("a", .int32(2)), ("b", .int32(3))])
        var buffer = ByteBuffer(bytes: encode(document))
        let read = try buffer.readBSONDocument()
        #expect(read.keys == ["b", "a", "b"])
        #expect(read["b"] == .int32(1))
        document["b"] = .string("x")
        #expect(document.elements.map(\.value) == [.string("x"), .int32(2), .int32(3)])
        document["b"] = nil
        #expect(document.keys == ["a"])
        document["c"] = .bool(false)
        #expect(document.keys == ["a", "c"])
    }

    @Test("JSON display form maps int32 and int64 to int and documents to objects")
    func jsonConversion() {
        let json = SDLJSON(bson: allTypesDocument)
        #expect(
            json == [
                "a": true, "n": nil, "d": 1.0, "i": -1, "l": .int(1 << 32), "s": "é", "x": [7],
                "o": .object([:]),
            ])
        #expect(BSONValue.int32(5).json == .int(5))
        #expect(BSONDocument([("k", .int32(1)), ("k", .int32(2))]).json == ["k": 1])
    }

    // MARK: Round trips

    @Test("Random documents survive write then read", arguments: [1, 2, 3] as [UInt64])
    func randomRoundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<100 {
            let document = BSONGenerator.document(depth: 0, using: &rng)
            let bytes = encode(document)
            var buffer = ByteBuffer(bytes: bytes)
            let read = try buffer.readBSONDocument()
            #expect(read == document)
            #expect(buffer.readableBytes == 0)
            #expect(encode(read) == bytes)
        }
    }

    // MARK: Hostile input

    @Test("Every truncation of a valid document is bsonTruncated")
    func everyTruncation() {
        let bytes = [UInt8](hex: allTypesHex)
        for length in 0..<bytes.count {
            #expect(bsonError(Array(bytes[..<length]))?.code == .bsonTruncated, "prefix of \(length) bytes")
        }
        var rng = SplitMix64(seed: 11)
        for _ in 0..<30 {
            let bytes = encode(BSONGenerator.document(depth: 0, using: &rng))
            for length in 0..<bytes.count {
                #expect(bsonError(Array(bytes[..<length]))?.code == .bsonTruncated)
            }
        }
    }

    @Test("A document cut short with its length patched to match is an error, never a crash")
    func shortenedWithPatchedLength() {
        var rng = SplitMix64(seed: 12)
        for _ in 0..<30 {
            let bytes = encode(BSONGenerator.document(depth: 0, using: &rng))
            for length in 5..<bytes.count {
                var cut = Array(bytes[..<length])
                cut.replaceSubrange(0..<4, with: withUnsafeBytes(of: Int32(length).littleEndian, Array.init))
                #expect(bsonError(cut) != nil, "length \(length) of \(bytes.count)")
            }
        }
    }

    @Test("Random byte corruption is either read or rejected with a BSON error")
    func corruption() {
        let bsonCodes: Set<SDLProtocolError.Code> = [
            .bsonTruncated, .bsonInvalidLength, .bsonUnsupportedType, .bsonInvalidString, .bsonInvalidValue,
            .bsonNestingTooDeep,
        ]
        var rng = SplitMix64(seed: 13)
        for _ in 0..<300 {
            var bytes = encode(BSONGenerator.document(depth: 0, using: &rng))
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if let error = bsonError(bytes) {
                #expect(bsonCodes.contains(error.code))
            }
        }
    }

    @Test("Document lengths that are negative, too small or huge")
    func hostileDocumentLengths() {
        #expect(bsonError(hex: "ff ff ff ff 00") == SDLProtocolError(.bsonInvalidLength, "document length -1 is below 5", offset: 0))
        #expect(bsonError(hex: "00 00 00 80 00")?.code == .bsonInvalidLength)
        #expect(bsonError(hex: "04 00 00 00 00")?.code == .bsonInvalidLength)
        #expect(bsonError(hex: "ff ff ff 7f 00")?.code == .bsonTruncated)
        #expect(bsonError(hex: "06 00 00 00 00")?.code == .bsonTruncated)
        // Embedded documents must fit their parent.
        #expect(bsonError(hex: "10 00 00 00 03 6f 00 ff ff ff 7f 00 00 00 00 00")?.code == .bsonInvalidLength)
        #expect(bsonError(hex: "10 00 00 00 03 6f 00 fb ff ff ff 00 00 00 00 00")?.offset == 7)
        #expect(bsonError(hex: "0c 00 00 00 03 6f 00 05 00 00 00 00")?.code == .bsonInvalidLength)
    }

    @Test("The terminating 0x00 must be exactly where the length says")
    func terminatorPosition() {
        // 0x00 at offset 4 but the length claims 10 bytes.
        #expect(
            bsonError(hex: "0a 00 00 00 00 00 00 00 00 00")
                == SDLProtocolError(
                    .bsonInvalidLength, "document ends with 0x00 before its declared length", offset: 4))
        // The last byte is not 0x00.
        #expect(bsonError(hex: "05 00 00 00 01")?.code == .bsonInvalidLength)
        // An int32 that runs over the terminator.
        #expect(
            bsonError(hex: "0b 00 00 00 10 61 00 01 00 00 00")
                == SDLProtocolError(
                    .bsonInvalidLength, "int32 value overruns the document", offset: 7))
    }

    @Test("String lengths that are zero, negative, huge, or without their NUL")
    func hostileStrings() throws {
        #expect(bsonError(hex: "0e 00 00 00 02 73 00 00 00 00 00 00 00 00")?.code == .bsonInvalidLength)
        #expect(bsonError(hex: "0e 00 00 00 02 73 00 ff ff ff ff 00 00 00")?.code == .bsonInvalidLength)
        #expect(bsonError(hex: "0e 00 00 00 02 73 00 ff ff ff 7f 00 00 00")?.offset == 7)
        // Length 3 covers "ab" but the third byte is 'c', not NUL.
        #expect(
            bsonError(hex: "0f 00 00 00 02 73 00 03 00 00 00 61 62 63 00")
                == SDLProtocolError(
                    .bsonInvalidString, "string is not terminated by 0x00", offset: 13))
        // Invalid UTF-8 in a value, then in a key.
        #expect(bsonError(hex: "0e 00 00 00 02 73 00 02 00 00 00 ff 00 00")?.code == .bsonInvalidString)
        #expect(bsonError(hex: "0c 00 00 00 10 ff 00 01 00 00 00 00")?.code == .bsonInvalidString)
        // A key not terminated inside the document.
        #expect(
            bsonError(hex: "08 00 00 00 10 61 62 00")
                == SDLProtocolError(
                    .bsonInvalidString, "key is not terminated inside the document", offset: 5))
        // NUL inside a string value is allowed by the length prefix.
        var buffer = ByteBuffer(hex: "0f 00 00 00 02 73 00 03 00 00 00 61 00 00 00")
        #expect(try buffer.readBSONDocument()["s"] == .string("a\u{0}"))
    }

    @Test("A bool byte other than 0 or 1 is bsonInvalidValue")
    func boolTwo() {
        #expect(
            bsonError(hex: "09 00 00 00 08 62 00 02 00")
                == SDLProtocolError(
                    .bsonInvalidValue, "bool byte is 2, not 0 or 1", offset: 7))
    }

    @Test("Error offsets are relative to the document start, not the buffer start")
    func offsetsRelativeToDocument() {
        var buffer = ByteBuffer(hex: "aa bb cc 09 00 00 00 08 62 00 02 00")
        buffer.moveReaderIndex(forwardBy: 3)
        do {
            _ = try buffer.readBSONDocument()
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .bsonInvalidValue)
            #expect(error.offset == 7)
            #expect(buffer.readerIndex == 3)
        }
    }

    @Test(
        "Unsupported type bytes are bsonUnsupportedType at the type byte", arguments: [0x05, 0x07, 0x09, 0x11, 0x13, 0x7F, 0xFF] as [UInt8])
    func unsupportedType(type: UInt8) {
        let error = bsonError([0x10, 0, 0, 0, type, 0x61, 0] + [UInt8](repeating: 0, count: 9))
        #expect(error?.code == .bsonUnsupportedType)
        #expect(error?.offset == 4)
    }

    @Test("Arrays must have the keys 0, 1, 2 … in order")
    func arrayKeys() throws {
        // { x: { "1": int32 7 } } as an array.
        #expect(bsonError(hex: "14 00 00 00 04 78 00 0c 00 00 00 10 31 00 07 00 00 00 00 00")?.code == .bsonInvalidValue)
        // Keys "0", "0".
        let twoZeros = "1b 00 00 00 04 78 00 13 00 00 00 10 30 00 07 00 00 00 10 30 00 08 00 00 00 00 00"
        #expect(
            bsonError(hex: twoZeros)
                == SDLProtocolError(
                    .bsonInvalidValue, "array key \"0\" where \"1\" was expected", offset: 7))
        // Keys "0", "1" read fine.
        var buffer = ByteBuffer(hex: "1b 00 00 00 04 78 00 13 00 00 00 10 30 00 07 00 00 00 10 31 00 08 00 00 00 00 00")
        #expect(try buffer.readBSONDocument()["x"] == [.int32(7), .int32(8)])
    }

    @Test("Nesting deeper than the limit is bsonNestingTooDeep, even for a deep bomb")
    func depthLimit() throws {
        #expect(bsonError(nested(levels: 32)) == nil)
        #expect(bsonError(nested(levels: 33))?.code == .bsonNestingTooDeep)
        #expect(bsonError(nested(levels: 4), maximumDepth: 3)?.code == .bsonNestingTooDeep)
        #expect(bsonError(nested(levels: 3), maximumDepth: 3) == nil)
        #expect(bsonError(nested(levels: 5000))?.code == .bsonNestingTooDeep)
        #expect(bsonError(nested(levels: 5000, arrays: true))?.code == .bsonNestingTooDeep)
    }

    /// `levels` documents inside each other (1 = the empty document).
    private func nested(levels: Int, arrays: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [5, 0, 0, 0, 0]
        var reversed: [UInt8] = bytes.reversed()
        for _ in 1..<levels {
            // Build reversed to append in O(1): [len] [type key 0] [inner] [0].
            let length = Int32(reversed.count + 4 + 3 + 1)
            var prefix: [UInt8] = withUnsafeBytes(of: length.littleEndian, Array.init)
            prefix += [arrays ? 0x04 : 0x03, arrays ? 0x30 : 0x61, 0x00]
            reversed.insert(0, at: 0)
            reversed.append(contentsOf: prefix.reversed())
        }
        bytes = reversed.reversed()
        return bytes
    }
}

/// Random BSON documents: every type, nesting, unicode keys and strings.
enum BSONGenerator {
    static let keyPool = ["a", "hashId", "mtu", "ключ", "キー", "🚗", "e\u{301}", "", "with space", "0"]
    static let stringPool = ["", "5.4.0", "héllo", "日本語", "🚗💨", "nul\u{0}inside", "tab\t\"quote\"", "\u{10FFFF}"]

    static func document(depth: Int, using rng: inout SplitMix64) -> BSONDocument {
        var document = BSONDocument()
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            document.append(key(using: &rng), value(depth: depth, using: &rng))
        }
        return document
    }

    static func key(using rng: inout SplitMix64) -> String {
        keyPool.randomElement(using: &rng)! + (Bool.random(using: &rng) ? String(Int.random(in: 0...99, using: &rng)) : "")
    }

    static func string(using rng: inout SplitMix64) -> String {
        (0..<Int.random(in: 0...3, using: &rng)).map { _ in stringPool.randomElement(using: &rng)! }.joined()
    }

    static func value(depth: Int, using rng: inout SplitMix64) -> BSONValue {
        let choice = Int.random(in: 0..<(depth < 4 ? 8 : 6), using: &rng)
        switch choice {
        case 0: return .string(string(using: &rng))
        case 1: return .int32(Int32(truncatingIfNeeded: rng.next()))
        case 2: return .int64(Int64(bitPattern: rng.next()))
        case 3:
            let double = Double(bitPattern: rng.next())
            return .double(double.isNaN ? -0.0 : double)
        case 4: return .bool(Bool.random(using: &rng))
        case 5: return .null
        case 6: return .document(document(depth: depth + 1, using: &rng))
        default:
            return .array((0..<Int.random(in: 0...12, using: &rng)).map { _ in value(depth: depth + 1, using: &rng) })
        }
    }
}
