import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import SDLProtocol

/// Every connection the gateway's and the simulator's servers accept, set up alike around what
/// `inner` sets up (HTTP/1.1, with or without WebSocket upgrades):
/// - its reads start small and grow with what arrives (``ConnectionReadBuffer``);
/// - its first request head must be complete within the timeout (``RequestHeadDeadline``, first in
///   its pipeline);
/// - once upgraded to a WebSocket it is pinged every 20 s and closed when it stops answering
///   (``WebSocketKeepAlive``, last in its pipeline, idle until the upgrade); a server without
///   WebSocket upgrades passes no period and its connections get none.
public struct ServedConnectionChannel<Inner: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Inner.Value

    let requestHeadTimeout: TimeAmount
    let keepAlivePeriod: TimeAmount?
    let inner: Inner

    public init(requestHeadTimeout: TimeAmount, keepAlivePeriod: TimeAmount? = WebSocketKeepAlive.period, inner: Inner) {
        self.requestHeadTimeout = requestHeadTimeout
        self.keepAlivePeriod = keepAlivePeriod
        self.inner = inner
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try ConnectionReadBuffer.configure(channel)
            try channel.pipeline.syncOperations.addHandler(
                RequestHeadDeadline(timeout: requestHeadTimeout, logger: logger), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            // After the upgrade handler, so that it sees the upgrade's completion.
            if let keepAlivePeriod { try channel.pipeline.syncOperations.addHandler(WebSocketKeepAlive(period: keepAlivePeriod)) }
            return value
        }
    }

    public func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 for the control APIs: the first request head within `requestHeadTimeout`
    /// (``RequestHeadDeadline``), then at most `idleTimeout` idle between requests or stalled
    /// inside one. No WebSocket upgrades, so no keep-alive.
    public static func boundedHTTP1(requestHeadTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60)) -> HTTPServerBuilder
    {
        HTTPServerBuilder { responder in
            ServedConnectionChannel(
                requestHeadTimeout: TimeAmount(requestHeadTimeout), keepAlivePeriod: nil,
                inner: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [MinimumBodyRate(logger: Logger(label: "sdl-gateway"))],
                        idleTimeout: TimeAmount(idleTimeout)
                    )
                )
            )
        }
    }
}
