/// A BSON value of the subset that SDL v5 control payloads use (protocol spec §3.1.3;
/// docs/protocol.md §b "BSON subset needed"; bsonspec.org).
///
/// | type              | code | value encoding                                         |
/// |-------------------|------|--------------------------------------------------------|
/// | double            | 0x01 | 8-byte IEEE-754, little-endian                          |
/// | string            | 0x02 | int32 LE length (incl. NUL), UTF-8 bytes, 0x00          |
/// | embedded document | 0x03 | a document                                             |
/// | array             | 0x04 | a document whose keys are "0", "1", "2", …             |
/// | bool              | 0x08 | 1 byte, 0x00 or 0x01                                    |
/// | null              | 0x0A | no bytes                                               |
/// | int32             | 0x10 | 4 bytes, little-endian                                 |
/// | int64             | 0x12 | 8 bytes, little-endian                                 |
public enum BSONValue: Sendable, Hashable {
    case document(BSONDocument)
    case array([BSONValue])
    case string(String)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case bool(Bool)
    case null
}

/// The element type bytes this implementation reads and writes.
enum BSONTypeCode: UInt8 {
    case double = 0x01
    case string = 0x02
    case document = 0x03
    case array = 0x04
    case bool = 0x08
    case null = 0x0A
    case int32 = 0x10
    case int64 = 0x12
}

extension BSONValue {
    var typeCode: BSONTypeCode {
        switch self {
        case .document: return .document
        case .array: return .array
        case .string: return .string
        case .int32: return .int32
        case .int64: return .int64
        case .double: return .double
        case .bool: return .bool
        case .null: return .null
        }
    }

    /// The BSON type name, as used in error messages (`"int32"`, `"string"` …).
    public var typeName: String {
        switch self {
        case .document: return "document"
        case .array: return "array"
        case .string: return "string"
        case .int32: return "int32"
        case .int64: return "int64"
        case .double: return "double"
        case .bool: return "bool"
        case .null: return "null"
        }
    }

    public var documentValue: BSONDocument? {
        if case .document(let value) = self { return value }
        return nil
    }

    public var arrayValue: [BSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var int32Value: Int32? {
        if case .int32(let value) = self { return value }
        return nil
    }

    public var int64Value: Int64? {
        if case .int64(let value) = self { return value }
        return nil
    }

    public var doubleValue: Double? {
        if case .double(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

extension BSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: BSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

/// A BSON document: an ordered list of (key, value) elements.
///
/// Order is kept as read and written. Keys are not required to be unique on the wire; the
/// subscript returns the first element with a key, and setting through it replaces that element.
public struct BSONDocument: Sendable, Hashable {
    /// One element of a document.
    public struct Element: Sendable, Hashable {
        public var key: String
        public var value: BSONValue

        public init(key: String, value: BSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// How many documents and arrays may nest, the outermost document included, before
    /// ``NIOCore/ByteBuffer/readBSONDocument(maximumDepth:)`` gives up with `bsonNestingTooDeep`.
    public static let defaultMaximumDepth = 32

    /// The elements, in wire order.
    public var elements: [Element]

    public init() { self.elements = [] }

    public init(_ elements: [Element]) { self.elements = elements }

    public init(_ pairs: [(String, BSONValue)]) {
        self.elements = pairs.map { Element(key: $0.0, value: $0.1) }
    }

    /// The keys, in wire order.
    public var keys: [String] { elements.map(\.key) }

    public var count: Int { elements.count }

    public var isEmpty: Bool { elements.isEmpty }

    /// The value of the first element named `key`. Setting `nil` removes every element named `key`;
    /// setting a value replaces the first such element or appends one.
    public subscript(key: String) -> BSONValue? {
        get { elements.first(where: { $0.key == key })?.value }
        set {
            if let newValue {
                if let index = elements.firstIndex(where: { $0.key == key }) {
                    elements[index].value = newValue
                } else {
                    elements.append(Element(key: key, value: newValue))
                }
            } else {
                elements.removeAll(where: { $0.key == key })
            }
        }
    }

    /// Appends an element, even if `key` is already present.
    public mutating func append(_ key: String, _ value: BSONValue) {
        elements.append(Element(key: key, value: value))
    }
}

extension BSONDocument: Sequence {
    public func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }
}

extension BSONDocument: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, BSONValue)...) {
        self.init(elements)
    }
}

// MARK: - JSON for display

extension SDLJSON {
    /// The JSON form of a BSON value, for display (`inspect` prints control payloads this way).
    ///
    /// int32 and int64 become ``SDLJSON/int(_:)``, documents become objects (on a duplicate key the
    /// first element wins, like ``BSONDocument/subscript(_:)``), arrays become arrays.
    public init(bson value: BSONValue) {
        switch value {
        case .document(let document): self.init(bson: document)
        case .array(let values): self = .array(values.map { SDLJSON(bson: $0) })
        case .string(let value): self = .string(value)
        case .int32(let value): self = .int(Int64(value))
        case .int64(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .bool(let value): self = .bool(value)
        case .null: self = .null
        }
    }

    /// The JSON object form of a BSON document, for display.
    public init(bson document: BSONDocument) {
        var members: [String: SDLJSON] = [:]
        for element in document where members[element.key] == nil {
            members[element.key] = SDLJSON(bson: element.value)
        }
        self = .object(members)
    }
}

extension BSONValue {
    /// This value as JSON, for display (see `SDLJSON.init(bson:)`).
    public var json: SDLJSON { SDLJSON(bson: self) }
}

extension BSONDocument {
    /// This document as a JSON object, for display.
    public var json: SDLJSON { SDLJSON(bson: self) }
}
