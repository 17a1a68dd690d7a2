import NIOCore

/// Tells when the client has left a connection. The server allows half-closure, so a client
/// that closes its socket shows up as `inputClosed`, not as a closed channel, and a response
/// that never writes (a quiet SSE stream) would never find out. This handler, in every HTTP
/// connection's pipeline, completes ``clientLeft`` on `inputClosed` or when the channel goes
/// inactive, whichever comes first; the SSE routes end their stream on it (issue "Security and
/// availability": closed streams are released at once, quiet or not).
final class ConnectionCloseWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var promise: EventLoopPromise<Void>?
    private var left = false

    init() {}

    /// Completes when the client has closed its side or the connection is gone.
    func clientLeft(on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        eventLoop.assertInEventLoop()
        if left { return eventLoop.makeSucceededVoidFuture() }
        let promise = self.promise ?? eventLoop.makePromise(of: Void.self)
        self.promise = promise
        return promise.futureResult
    }

    private func leave() {
        guard !left else { return }
        left = true
        promise?.succeed()
        promise = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { leave() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        leave()
    }
}

extension Channel {
    /// Completes when the client has left (see ``ConnectionCloseWatcher``); on a channel without
    /// the watcher (the in-memory test router), when the channel closes.
    func clientLeft() -> EventLoopFuture<Void> {
        eventLoop.flatSubmit {
            guard let watcher = try? self.pipeline.syncOperations.handler(type: ConnectionCloseWatcher.self) else {
                return self.closeFuture
            }
            return watcher.clientLeft(on: self.eventLoop)
        }
    }
}
