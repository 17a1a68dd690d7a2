/// A JSON value: the parameters of an SDL RPC (protocol spec §5.2, "JSON Data"; docs/protocol.md §c).
///
/// Integers without a fraction or exponent that fit in 64 bits are kept as ``int(_:)`` so that
/// correlation ids, ids and sizes survive exactly; every other number is a ``double(_:)``.
/// Object keys are unordered; ``SDLJSON/serialized()`` writes them sorted, so output is stable.
public enum SDLJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([SDLJSON])
    case object([String: SDLJSON])
}

extension SDLJSON {
    /// The empty object `{}`.
    public static let emptyObject = SDLJSON.object([:])

    /// The member `key` of an object, or `nil` for a missing key or a non-object.
    public subscript(key: String) -> SDLJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    public var objectValue: [String: SDLJSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var arrayValue: [SDLJSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value as an integer: an ``int(_:)``, or a ``double(_:)`` with no fractional part.
    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.rounded(.towardZero) == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    /// The value as a number, for either numeric case.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The JSON type name of this value, as used in validation messages (`"string"`, `"object"` …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension SDLJSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: SDLJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, SDLJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension SDLJSON: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([SDLJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: SDLJSON].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension SDLJSON: CustomStringConvertible {
    public var description: String { serialized() }
}
