import HTTPAPISupport
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

extension SimulatorControlRoutes {
    /// The standalone control API's WebSocket router (`simulate --control`): the live stream
    /// feeds (``addWebSocketRoutes(to:)``) behind the same origin rule as its other routes.
    public func makeWebSocketRouter(loopbackHostsOnly: Bool = true) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: ProblemMiddleware(operations: Self.operations.map { $0.mounted(at: "/") }))
        router.add(middleware: BrowserOriginMiddleware(rule: BrowserOriginRule(loopbackHostsOnly: loopbackHostsOnly)))
        addWebSocketRoutes(to: router)
        return router
    }

    /// The standalone control API's server: ``HTTPServerBuilder/boundedHTTP1(requestHeadTimeout:idleTimeout:)``'s
    /// limits, with WebSocket upgrades to ``makeWebSocketRouter(loopbackHostsOnly:)`` (pings every
    /// 20 s find readers that are gone; messages from the client are at most 64 KiB).
    public func makeServer(
        loopbackHostsOnly: Bool = true, requestHeadTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60)
    ) -> HTTPServerBuilder {
        let webSocketResponder = makeWebSocketRouter(loopbackHostsOnly: loopbackHostsOnly).buildResponder()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                additionalChannelHandlers: [MinimumBodyRate(logger: Logger(label: "sdl-gateway"))], idleTimeout: TimeAmount(idleTimeout)),
            ws: .init(maxFrameSize: Self.maximumBodySize, autoPing: .disabled)
        )
        return HTTPServerBuilder { responder in
            ServedConnectionChannel(
                requestHeadTimeout: TimeAmount(requestHeadTimeout),
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: configuration)
            )
        }
    }
}
