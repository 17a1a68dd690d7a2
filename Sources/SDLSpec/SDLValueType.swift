/// The `type` attribute of a `<param>` in MOBILE_API.xml: one of the four basic types or the
/// name of a top-level `<enum>` or `<struct>` of the same document.
///
/// In the Codable form it is one string: `Integer`, `Float`, `Boolean`, `String`,
/// `enum:<Name>` or `struct:<Name>`.
public enum SDLValueType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `Integer`: a JSON number without a fraction.
    case integer
    /// `Float`: any JSON number.
    case float
    /// `Boolean`: JSON `true` or `false`.
    case boolean
    /// `String`: a JSON string.
    case string
    /// An enum: a JSON string that is one of the enum's element names.
    case enumeration(String)
    /// A struct: a JSON object with the struct's params.
    case structure(String)

    /// The name as written in the spec's `type` attribute.
    public var specName: String {
        switch self {
        case .integer: return "Integer"
        case .float: return "Float"
        case .boolean: return "Boolean"
        case .string: return "String"
        case .enumeration(let name), .structure(let name): return name
        }
    }

    /// The basic type named `name`, or `nil` for an enum or struct name.
    public init?(basicTypeName name: String) {
        switch name {
        case "Integer": self = .integer
        case "Float": self = .float
        case "Boolean": self = .boolean
        case "String": self = .string
        default: return nil
        }
    }

    /// `Integer`, `Float`, `Boolean`, `String`, `enum <Name>` or `struct <Name>`.
    public var description: String {
        switch self {
        case .enumeration(let name): return "enum \(name)"
        case .structure(let name): return "struct \(name)"
        default: return specName
        }
    }

    var codedForm: String {
        switch self {
        case .enumeration(let name): return "enum:" + name
        case .structure(let name): return "struct:" + name
        default: return specName
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let basic = SDLValueType(basicTypeName: text) {
            self = basic
        } else if text.hasPrefix("enum:") {
            self = .enumeration(String(text.dropFirst(5)))
        } else if text.hasPrefix("struct:") {
            self = .structure(String(text.dropFirst(7)))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown value type \(text)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(codedForm)
    }
}
