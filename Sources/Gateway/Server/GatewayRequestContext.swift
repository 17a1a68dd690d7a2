import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of every gateway route: Hummingbird's core context, the WebSocket
/// upgrade handler reference (for `/events`), its connection, and what ``AuthMiddleware`` granted.
public struct GatewayRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// Set by ``AuthMiddleware``: what the caller may do.
    public var scope: TokenScope?
    /// Who the caller is for the rate limit: its token, else its address.
    public var clientKey: String
    public let remoteAddress: SocketAddress?
    /// The connection the request came on (the SSE streams watch it for the client leaving).
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.webSocket = .init()
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
        self.clientKey = source.channel.remoteAddress?.ipAddress ?? "local"
    }

    /// JSON bodies of the API are small; files have their own limit (``GatewayLimits``).
    public var maxUploadSize: Int { GatewayLimits.defaultBodySize }
}
