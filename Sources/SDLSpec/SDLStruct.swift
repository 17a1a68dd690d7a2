/// A top-level `<struct>` of MOBILE_API.xml: a JSON object type with its params.
public struct SDLStruct: Sendable, Hashable, Codable {
    /// The `name` attribute, as used in a param's `type`.
    public var name: String
    /// The `<param>` children, in document order.
    public var parameters: [SDLParameter]
    /// `since`: the RPC spec version that introduced the current definition.
    public var since: String?
    /// `until`: the RPC spec version that removed it.
    public var until: String?
    /// `deprecated="true"`.
    public var isDeprecated: Bool

    public init(name: String, parameters: [SDLParameter], since: String? = nil, until: String? = nil, isDeprecated: Bool = false) {
        self.name = name
        self.parameters = parameters
        self.since = since
        self.until = until
        self.isDeprecated = isDeprecated
    }

    /// The parameter named `name`, if any.
    public func parameter(named name: String) -> SDLParameter? {
        parameters.first { $0.name == name }
    }
}
