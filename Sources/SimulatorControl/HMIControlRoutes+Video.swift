import HeadUnitModel
import HTTPAPISupport
import HTTPTypes
import HeadUnitSimulator
import HeadlessHMI
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import SDLClient
import SDLProtocol

/// The headless HMI's stream WebSocket: `GET /apps/{appID}/video` upgraded, whose binary
/// messages are the bytes of the app's video stream as the HMI reads them from SDL Core's socket
/// consumer (``HMIStreamReader``: Core's HTTP head taken off), in order, from the moment the
/// reader connected. A reader that falls behind loses bytes (``HMIStreamRelay``) and gets the
/// text message `{"type":"gap","bytes":N}` where they were. The socket stays open across the
/// app's streams (StopStream, a new StartStream); a message from the reader closes it with 1003
/// (``LiveStreamFeed``, as the simulator's feeds).
extension HMIControlRoutes {
    /// The WebSocket operations, beside ``operations`` in `openapi.yaml`.
    public static let webSocketOperations: [APIOperation] = [APIOperation("GET", "apps/{appID}/video")]

    /// Adds the WebSocket routes to a WebSocket router (its upgrade refused with the HTTP routes'
    /// problems: an unknown app 404).
    public func addWebSocket<Context: WebSocketRequestContext>(to router: some RouterMethods<Context>) {
        let routes = self
        let relay = connection.relay
        router.ws(
            "apps/:appID/video",
            shouldUpgrade: { request, context in
                _ = try routes.app(context)
                return .upgrade(WebSocketSubprotocol.upgradeHeaders(offered: request.headers[values: .secWebSocketProtocol]))
            }
        ) { inbound, outbound, context in
            let appID = try routes.app(context.requestContext).appID
            let subscription = relay.subscribe(appID: appID, kind: .video)
            defer { subscription.cancel() }
            try await Self.relay(subscription.queue, inbound, outbound)
        }
    }

    /// Writes the queue's pieces until the reader leaves (or sends a message: 1003).
    static func relay(
        _ queue: SDLDropQueue<StreamPiece, HMIStreamRelay.Loss>, _ inbound: WebSocketInboundStream,
        _ outbound: WebSocketOutboundWriter
    ) async throws {
        try await LiveStreamFeed.run(inbound, outbound) { send in
            // nil once cancelled: the reader left.
            while let piece = await queue.next() { try await send(piece) }
        }
    }
}

extension HMIControlRoutes {
    /// The standalone control API's server (`sdl-gateway hmi`): HTTP/1.1 bounded as
    /// ``HTTPServerBuilder/boundedHTTP1(requestHeadTimeout:idleTimeout:)`` is, with upgrades to the
    /// WebSocket routes, which meet the same origin rule as the HTTP routes.
    public func makeServer(loopbackHostsOnly: Bool = true) -> HTTPServerBuilder {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.add(middleware: BrowserOriginMiddleware(rule: BrowserOriginRule(loopbackHostsOnly: loopbackHostsOnly)))
        addWebSocket(to: router)
        let webSocketResponder = router.buildResponder()
        return HTTPServerBuilder { responder in
            ServedConnectionChannel(
                requestHeadTimeout: .seconds(10),
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        http1: .init(
                            additionalChannelHandlers: [MinimumBodyRate(logger: Logger(label: "sdl-gateway"))], idleTimeout: .seconds(60)),
                        ws: .init(maxFrameSize: 1 << 16, autoPing: .disabled)
                    )
                )
            )
        }
    }
}
