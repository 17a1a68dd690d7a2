import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every gateway route: Hummingbird's core context, the WebSocket
/// upgrade handler reference (for `/events`), and the scope the request's token granted.
public struct GatewayRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// Set by ``AuthMiddleware``: what the caller may do.
    public var scope: TokenScope?
    /// Who the caller is for the rate limit: its token, else its address.
    public var clientKey: String
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.remoteAddress = source.channel.remoteAddress
        self.clientKey = source.channel.remoteAddress?.ipAddress ?? "local"
    }

    /// JSON bodies of the API are small; files have their own limit (``GatewayLimits``).
    public var maxUploadSize: Int { GatewayLimits.defaultBodySize }
}

/// What a bearer token allows (ARCHITECTURE.md; issue "Security and limits"): `read` covers GET,
/// HEAD and the event streams, `control` everything.
public enum TokenScope: String, Sendable, Hashable, Codable {
    case read, control
}
