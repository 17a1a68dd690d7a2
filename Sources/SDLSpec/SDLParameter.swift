/// A `<param>` of a `<function>` or `<struct>` in MOBILE_API.xml (rpc_spec README,
/// "Parameters"; docs/protocol.md §f–§h): its name, type and the constraints SDL Core enforces on it.
///
/// Absent attributes are `nil`: no bound. `minValue`/`maxValue` apply to Integer and Float,
/// `minLength`/`maxLength` to String (counted in Unicode scalars, see
/// ``SDLCatalog/validate(_:against:maximumDepth:)``), `minSize`/`maxSize` to arrays.
public struct SDLParameter: Sendable, Hashable, Codable {
    /// The JSON key.
    public var name: String
    /// The element type (for an array, the type of each element).
    public var type: SDLValueType
    /// `array="true"`: the value is a JSON array of `type`.
    public var isArray: Bool
    /// `minsize`: the fewest array elements.
    public var minSize: Int?
    /// `maxsize`: the most array elements.
    public var maxSize: Int?
    /// `minvalue`: the smallest number.
    public var minValue: Double?
    /// `maxvalue`: the largest number.
    public var maxValue: Double?
    /// `minlength`: the shortest string.
    public var minLength: Int?
    /// `maxlength`: the longest string.
    public var maxLength: Int?
    /// `mandatory="true"` (the spec's default when the attribute is absent).
    public var isMandatory: Bool
    /// `defvalue`, verbatim.
    public var defaultValue: String?
    /// For an enum param with `<element>` children (e.g. the `resultCode` of each response): the
    /// only element names allowed here, a subset of the enum (SDL Core's "enum subset").
    public var allowedElements: [String]?
    /// `since`: the RPC spec version that introduced the current definition.
    public var since: String?
    /// `until`: the RPC spec version that removed it.
    public var until: String?
    /// `deprecated="true"`.
    public var isDeprecated: Bool

    public init(
        name: String, type: SDLValueType, isArray: Bool = false,
        minSize: Int? = nil, maxSize: Int? = nil,
        minValue: Double? = nil, maxValue: Double? = nil,
        minLength: Int? = nil, maxLength: Int? = nil,
        isMandatory: Bool = true, defaultValue: String? = nil, allowedElements: [String]? = nil,
        since: String? = nil, until: String? = nil, isDeprecated: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isArray = isArray
        self.minSize = minSize
        self.maxSize = maxSize
        self.minValue = minValue
        self.maxValue = maxValue
        self.minLength = minLength
        self.maxLength = maxLength
        self.isMandatory = isMandatory
        self.defaultValue = defaultValue
        self.allowedElements = allowedElements
        self.since = since
        self.until = until
        self.isDeprecated = isDeprecated
    }

    // The Codable form leaves out absent attributes and false flags, to keep the built-in
    // catalog small.
    private enum CodingKeys: String, CodingKey {
        case name, type, isArray, minSize, maxSize, minValue, maxValue, minLength, maxLength
        case isMandatory, defaultValue, allowedElements, since, until, isDeprecated
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name),
            type: try c.decode(SDLValueType.self, forKey: .type),
            isArray: try c.decodeIfPresent(Bool.self, forKey: .isArray) ?? false,
            minSize: try c.decodeIfPresent(Int.self, forKey: .minSize),
            maxSize: try c.decodeIfPresent(Int.self, forKey: .maxSize),
            minValue: try c.decodeIfPresent(Double.self, forKey: .minValue),
            maxValue: try c.decodeIfPresent(Double.self, forKey: .maxValue),
            minLength: try c.decodeIfPresent(Int.self, forKey: .minLength),
            maxLength: try c.decodeIfPresent(Int.self, forKey: .maxLength),
            isMandatory: try c.decodeIfPresent(Bool.self, forKey: .isMandatory) ?? false,
            defaultValue: try c.decodeIfPresent(String.self, forKey: .defaultValue),
            allowedElements: try c.decodeIfPresent([String].self, forKey: .allowedElements),
            since: try c.decodeIfPresent(String.self, forKey: .since),
            until: try c.decodeIfPresent(String.self, forKey: .until),
            isDeprecated: try c.decodeIfPresent(Bool.self, forKey: .isDeprecated) ?? false
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(type, forKey: .type)
        if isArray { try c.encode(true, forKey: .isArray) }
        try c.encodeIfPresent(minSize, forKey: .minSize)
        try c.encodeIfPresent(maxSize, forKey: .maxSize)
        try c.encodeIfPresent(minValue, forKey: .minValue)
        try c.encodeIfPresent(maxValue, forKey: .maxValue)
        try c.encodeIfPresent(minLength, forKey: .minLength)
        try c.encodeIfPresent(maxLength, forKey: .maxLength)
        if isMandatory { try c.encode(true, forKey: .isMandatory) }
        try c.encodeIfPresent(defaultValue, forKey: .defaultValue)
        try c.encodeIfPresent(allowedElements, forKey: .allowedElements)
        try c.encodeIfPresent(since, forKey: .since)
        try c.encodeIfPresent(until, forKey: .until)
        if isDeprecated { try c.encode(true, forKey: .isDeprecated) }
    }
}
