import SDLProtocol

/// One RPC request a plan asks the driver to send: the function name of MOBILE_API.xml and its
/// parameters. The driver adds the correlation id and sends it through the app session.
public struct SDLPlannedRequest: Sendable, Hashable, CustomStringConvertible {
    public var functionName: String
    public var parameters: SDLJSON

    public init(_ functionName: String, _ parameters: SDLJSON = .emptyObject) {
        self.functionName = functionName
        self.parameters = parameters
    }

    /// `Show {"mainField1":"a"}`: the name and the parameters with sorted keys.
    public var description: String { "\(functionName) \(parameters.serialized())" }
}
