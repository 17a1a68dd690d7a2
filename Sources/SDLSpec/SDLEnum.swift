/// A top-level `<enum>` of MOBILE_API.xml. On the wire (JSON) a value is the element's `name`
/// (e.g. Language `EN-US`), never its `internal_name` (docs/protocol.md §h).
public struct SDLEnum: Sendable, Hashable, Codable {
    /// An `<element>` of the enum.
    public struct Element: Sendable, Hashable, Codable {
        /// The `name` attribute: the JSON string.
        public var name: String
        /// The numeric `value` attribute (decimal or `0x` hex), or `hexvalue` when only that is
        /// given; `nil` for most enums, which have none.
        public var value: Int64?
        /// `since`: the RPC spec version that introduced the element.
        public var since: String?
        /// `until`: the RPC spec version that removed it.
        public var until: String?
        /// `true` for `deprecated="true"`, otherwise `nil` (which keeps the JSON form small).
        public var isDeprecated: Bool?

        public init(name: String, value: Int64? = nil, since: String? = nil, until: String? = nil, isDeprecated: Bool? = nil) {
            self.name = name
            self.value = value
            self.since = since
            self.until = until
            self.isDeprecated = isDeprecated
        }
    }

    /// The `name` attribute, as used in a param's `type`.
    public var name: String
    /// The `<element>` children, in document order.
    public var elements: [Element]
    /// `since`: the RPC spec version that introduced the enum.
    public var since: String?
    /// `until`: the RPC spec version that removed it.
    public var until: String?
    /// `deprecated="true"`.
    public var isDeprecated: Bool

    public init(name: String, elements: [Element], since: String? = nil, until: String? = nil, isDeprecated: Bool = false) {
        self.name = name
        self.elements = elements
        self.since = since
        self.until = until
        self.isDeprecated = isDeprecated
    }

    /// The element names in document order.
    public var elementNames: [String] { elements.map(\.name) }

    /// Whether `name` is one of the element names.
    public func contains(_ name: String) -> Bool {
        elements.contains { $0.name == name }
    }

    /// The element named `name`, if any.
    public func element(named name: String) -> Element? {
        elements.first { $0.name == name }
    }
}
