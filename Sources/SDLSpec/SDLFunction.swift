/// A top-level `<function>` of MOBILE_API.xml: one message type (request, response or
/// notification) of one RPC, with its FunctionID number (docs/protocol.md §g) and params.
public struct SDLFunction: Sendable, Hashable, Codable {
    /// The `name` attribute, e.g. `RegisterAppInterface` (without the FunctionID's "ID" suffix).
    public var name: String
    /// The `value` of the FunctionID element named by the `functionID` attribute.
    public var functionID: UInt32
    /// The `messagetype` attribute.
    public var messageType: SDLMessageType
    /// The `<param>` children, in document order.
    public var parameters: [SDLParameter]
    /// `since`: the RPC spec version that introduced the current definition.
    public var since: String?
    /// `until`: the RPC spec version that removed it.
    public var until: String?
    /// `deprecated="true"`.
    public var isDeprecated: Bool

    public init(
        name: String, functionID: UInt32, messageType: SDLMessageType, parameters: [SDLParameter],
        since: String? = nil, until: String? = nil, isDeprecated: Bool = false
    ) {
        self.name = name
        self.functionID = functionID
        self.messageType = messageType
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
