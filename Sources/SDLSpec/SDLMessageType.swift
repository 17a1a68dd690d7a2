import SDLProtocol

/// The `messagetype` of a `<function>` in MOBILE_API.xml: one FunctionID is shared by a request
/// and its response; notifications have their own ids (docs/protocol.md §g).
public enum SDLMessageType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case request
    case response
    case notification

    /// The message type of an RPC header's type nibble (protocol spec §5.2; docs/protocol.md §c).
    public init(_ rpcType: SDLRPCType) {
        switch rpcType {
        case .request: self = .request
        case .response: self = .response
        case .notification: self = .notification
        }
    }

    /// The RPC header's type nibble for this message type (protocol spec §5.2; docs/protocol.md §c).
    public var rpcType: SDLRPCType {
        switch self {
        case .request: return .request
        case .response: return .response
        case .notification: return .notification
        }
    }

    public var description: String { rawValue }
}
