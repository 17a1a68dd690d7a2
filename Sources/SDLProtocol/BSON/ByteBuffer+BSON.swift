import NIOCore

// BSON documents on the wire (bsonspec.org; docs/protocol.md §b "BSON subset needed").
//
// ```
//  document:  +-------------------+-----------+-----------+ … +------+
//             | length: int32 LE  | element 0 | element 1 | … | 0x00 |
//             | (counts itself    |           |           |   |      |
//             |  and the 0x00)    |           |           |   |      |
//             +-------------------+-----------+-----------+ … +------+
//  element:   +-----------+--------------------+-------------------------+
//             | type: u8  | key: UTF-8, 0x00   | value (see BSONValue)   |
//             +-----------+--------------------+-------------------------+
//  string:    +-------------------+--------------+------+
//             | n: int32 LE (≥1)  | n-1 bytes    | 0x00 |
//             +-------------------+--------------+------+
// ```
// Every integer inside BSON is little-endian.

extension ByteBuffer {
    /// Reads one BSON document, strictly, and moves the reader index past it.
    ///
    /// - The length must be at least 5; a length larger than the readable bytes is
    ///   `bsonTruncated`, since more bytes may still arrive.
    /// - The terminating 0x00 must be exactly the last byte the length covers, and every element
    ///   must lie before it (`bsonInvalidLength`); the same holds for embedded documents and arrays
    ///   inside their parent.
    /// - Strings must have a length ≥ 1 that fits, end in 0x00 and be valid UTF-8; keys must be
    ///   terminated inside the document and be valid UTF-8 (`bsonInvalidString`).
    /// - Bools must be 0 or 1, and arrays must have keys "0", "1", … in order (`bsonInvalidValue`).
    /// - Other type bytes are `bsonUnsupportedType`; more than `maximumDepth` nested documents and
    ///   arrays (the outermost included) is `bsonNestingTooDeep`.
    ///
    /// Errors carry the byte offset relative to the start of the document. Nothing is consumed on
    /// error. Nothing is allocated in proportion to a length field: lengths are checked against the
    /// bytes that are there before they are used.
    public mutating func readBSONDocument(
        maximumDepth: Int = BSONDocument.defaultMaximumDepth
    ) throws(SDLProtocolError) -> BSONDocument {
        let result = withUnsafeReadableBytes { bytes in
            Result { () throws(SDLProtocolError) -> (BSONDocument, Int) in
                try BSONReader(bytes: bytes, maximumDepth: maximumDepth).readTopLevelDocument()
            }
        }
        let (document, length) = try result.get()
        moveReaderIndex(forwardBy: length)
        return document
    }

    /// Writes `document`; returns the number of bytes written.
    ///
    /// Keys must not contain U+0000 (a C string cannot hold it); that is a programmer error.
    @discardableResult
    public mutating func writeBSONDocument(_ document: BSONDocument) -> Int {
        let start = writerIndex
        writeInteger(Int32(0), endianness: .little)  // patched below
        for element in document.elements {
            writeBSONElement(key: element.key, value: element.value)
        }
        writeInteger(UInt8(0))
        return patchBSONLength(at: start)
    }

    private mutating func writeBSONArray(_ values: [BSONValue]) {
        let start = writerIndex
        writeInteger(Int32(0), endianness: .little)
        for (index, value) in values.enumerated() {
            writeBSONElement(key: String(index), value: value)
        }
        writeInteger(UInt8(0))
        patchBSONLength(at: start)
    }

    @discardableResult
    private mutating func patchBSONLength(at start: Int) -> Int {
        let length = writerIndex - start
        precondition(length <= Int(Int32.max), "BSON document of \(length) bytes does not fit an int32 length")
        setInteger(Int32(length), at: start, endianness: .little)
        return length
    }

    private mutating func writeBSONElement(key: String, value: BSONValue) {
        precondition(!key.utf8.contains(0), "BSON keys cannot contain U+0000")
        writeInteger(value.typeCode.rawValue)
        writeString(key)
        writeInteger(UInt8(0))
        switch value {
        case .document(let document):
            writeBSONDocument(document)
        case .array(let values):
            writeBSONArray(values)
        case .string(let string):
            let count = string.utf8.count
            precondition(count < Int(Int32.max), "BSON string of \(count) bytes does not fit an int32 length")
            writeInteger(Int32(count + 1), endianness: .little)
            writeString(string)
            writeInteger(UInt8(0))
        case .int32(let value):
            writeInteger(value, endianness: .little)
        case .int64(let value):
            writeInteger(value, endianness: .little)
        case .double(let value):
            writeInteger(value.bitPattern, endianness: .little)
        case .bool(let value):
            writeInteger(UInt8(value ? 1 : 0))
        case .null:
            break
        }
    }
}

/// A strict, non-copying BSON parser over the readable bytes of a buffer.
/// Offsets are indices into `bytes`, i.e. relative to the start of the outermost document.
private struct BSONReader {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int

    /// The smallest document: a length and the terminating 0x00.
    static let minimumDocumentLength = 5

    func readTopLevelDocument() throws(SDLProtocolError) -> (BSONDocument, Int) {
        guard bytes.count >= 4 else {
            throw SDLProtocolError(.bsonTruncated, "document length needs 4 bytes, \(bytes.count) readable", offset: 0)
        }
        let length = Int(int32(at: 0))
        guard length >= Self.minimumDocumentLength else {
            throw SDLProtocolError(.bsonInvalidLength, "document length \(length) is below 5", offset: 0)
        }
        guard length <= bytes.count else {
            throw SDLProtocolError(
                .bsonTruncated, "document length \(length) exceeds the \(bytes.count) readable bytes", offset: 0)
        }
        return (try readBody(start: 0, end: length, depth: 1), length)
    }

    /// Reads an embedded document starting at `start` that must end at or before `limit`.
    func readEmbeddedDocument(at start: Int, limit: Int, depth: Int) throws(SDLProtocolError) -> (BSONDocument, Int) {
        guard limit - start >= 4 else {
            throw SDLProtocolError(.bsonInvalidLength, "embedded document length overruns its parent", offset: start)
        }
        let length = Int(int32(at: start))
        guard length >= Self.minimumDocumentLength else {
            throw SDLProtocolError(.bsonInvalidLength, "embedded document length \(length) is below 5", offset: start)
        }
        guard length <= limit - start else {
            throw SDLProtocolError(
                .bsonInvalidLength, "embedded document length \(length) overruns its parent", offset: start)
        }
        return (try readBody(start: start, end: start + length, depth: depth), start + length)
    }

    /// Reads the elements of the document occupying `start..<end`.
    private func readBody(start: Int, end: Int, depth: Int) throws(SDLProtocolError) -> BSONDocument {
        guard depth <= maximumDepth else {
            throw SDLProtocolError(
                .bsonNestingTooDeep, "documents and arrays nest deeper than \(maximumDepth)", offset: start)
        }
        let terminator = end - 1
        var elements: [BSONDocument.Element] = []
        var cursor = start + 4
        while true {
            let typeByte = bytes[cursor]
            if typeByte == 0 {
                guard cursor == terminator else {
                    throw SDLProtocolError(
                        .bsonInvalidLength, "document ends with 0x00 before its declared length", offset: cursor)
                }
                break
            }
            guard cursor < terminator else {
                throw SDLProtocolError(.bsonInvalidLength, "document's last byte is not 0x00", offset: cursor)
            }
            guard let type = BSONTypeCode(rawValue: typeByte) else {
                throw SDLProtocolError(
                    .bsonUnsupportedType, "element type 0x\(String(typeByte, radix: 16)) is not supported",
                    offset: cursor)
            }
            let (key, valueStart) = try readKey(at: cursor + 1, limit: terminator)
            let (value, next) = try readValue(type, at: valueStart, limit: terminator, depth: depth)
            elements.append(BSONDocument.Element(key: key, value: value))
            cursor = next
        }
        return BSONDocument(elements)
    }

    private func readKey(at start: Int, limit: Int) throws(SDLProtocolError) -> (String, Int) {
        guard let nul = bytes[start..<limit].firstIndex(of: 0) else {
            throw SDLProtocolError(.bsonInvalidString, "key is not terminated inside the document", offset: start)
        }
        guard let key = String(validating: bytes[start..<nul], as: UTF8.self) else {
            throw SDLProtocolError(.bsonInvalidString, "key is not valid UTF-8", offset: start)
        }
        return (key, nul + 1)
    }

    private func requireFixed(_ size: Int, _ name: String, at start: Int, limit: Int) throws(SDLProtocolError) {
        guard limit - start >= size else {
            throw SDLProtocolError(.bsonInvalidLength, "\(name) value overruns the document", offset: start)
        }
    }

    private func readValue(
        _ type: BSONTypeCode, at start: Int, limit: Int, depth: Int
    ) throws(SDLProtocolError) -> (BSONValue, Int) {
        switch type {
        case .double:
            try requireFixed(8, "double", at: start, limit: limit)
            return (.double(Double(bitPattern: uint64(at: start))), start + 8)
        case .string:
            try requireFixed(4, "string length", at: start, limit: limit)
            let length = Int(int32(at: start))
            guard length >= 1 else {
                throw SDLProtocolError(.bsonInvalidLength, "string length \(length) is below 1", offset: start)
            }
            guard length <= limit - start - 4 else {
                throw SDLProtocolError(
                    .bsonInvalidLength, "string length \(length) overruns the document", offset: start)
            }
            let textStart = start + 4
            let nul = textStart + length - 1
            guard bytes[nul] == 0 else {
                throw SDLProtocolError(.bsonInvalidString, "string is not terminated by 0x00", offset: nul)
            }
            guard let string = String(validating: bytes[textStart..<nul], as: UTF8.self) else {
                throw SDLProtocolError(.bsonInvalidString, "string is not valid UTF-8", offset: textStart)
            }
            return (.string(string), nul + 1)
        case .document:
            let (document, next) = try readEmbeddedDocument(at: start, limit: limit, depth: depth + 1)
            return (.document(document), next)
        case .array:
            let (document, next) = try readEmbeddedDocument(at: start, limit: limit, depth: depth + 1)
            var values: [BSONValue] = []
            values.reserveCapacity(document.count)
            for (index, element) in document.elements.enumerated() {
                guard element.key == String(index) else {
                    throw SDLProtocolError(
                        .bsonInvalidValue, "array key \"\(element.key)\" where \"\(index)\" was expected",
                        offset: start)
                }
                values.append(element.value)
            }
            return (.array(values), next)
        case .bool:
            try requireFixed(1, "bool", at: start, limit: limit)
            switch bytes[start] {
            case 0: return (.bool(false), start + 1)
            case 1: return (.bool(true), start + 1)
            case let other:
                throw SDLProtocolError(.bsonInvalidValue, "bool byte is \(other), not 0 or 1", offset: start)
            }
        case .null:
            return (.null, start)
        case .int32:
            try requireFixed(4, "int32", at: start, limit: limit)
            return (.int32(int32(at: start)), start + 4)
        case .int64:
            try requireFixed(8, "int64", at: start, limit: limit)
            return (.int64(Int64(bitPattern: uint64(at: start))), start + 8)
        }
    }

    private func int32(at offset: Int) -> Int32 {
        Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    private func uint64(at offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
