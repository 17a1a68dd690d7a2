import NIOCore
import NIOWebSocket

/// Pings a WebSocket client every ``period`` from its connection's event loop and closes the
/// connection when a whole period after a ping passed without a frame from the client: a pong
/// (RFC 6455 §5.5.3) or anything else it sent. Dead clients (a laptop closed, a network gone)
/// are found this way, and proxies that close idle connections see traffic.
///
/// Installed just after the frame decoder of every WebSocket the gateway serves, instead of the
/// WebSocket library's own pings, which run a task per connection that sleeps between pings: a
/// task, its stack and its timer for each of 10,000 idle event clients (about 2.5 KiB each),
/// where a timer on the connection's loop costs a scheduled closure.
final class WebSocketKeepAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The time between pings, and what a client has to answer one.
    static let period: TimeAmount = .seconds(20)

    private let period: TimeAmount
    /// A frame arrived since the last ping.
    private var heard = true
    private var timer: RepeatedTask?

    /// The timer is running (it stops when the connection goes or the handler is removed).
    var isPinging: Bool { timer != nil }

    init(period: TimeAmount = WebSocketKeepAlive.period) {
        self.period = period
    }

    /// Adds a keep-alive to the upgraded WebSocket connection `channel`; false when the
    /// connection was already gone.
    @discardableResult
    static func install(on channel: any Channel, period: TimeAmount = WebSocketKeepAlive.period) async -> Bool {
        let installed: Void? = try? await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            try pipeline.addHandler(WebSocketKeepAlive(period: period), position: .after(decoder))
        }.get()
        return installed != nil
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        heard = true
        context.fireChannelRead(data)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: period, delay: period) { _ in
            bound.value.handler.tick(bound.value.context)
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
    }

    /// A period has passed: ping, or close when the last ping went unanswered. While the
    /// connection is not writable the period does not count: the client is still taking what was
    /// written before (a ping queued behind it could not be answered yet), and a client that
    /// takes nothing costs no more than its event queue (``EventClientQueue``).
    private func tick(_ context: ChannelHandlerContext) {
        guard context.channel.isWritable else { return }
        guard heard else {
            stop()
            context.close(promise: nil)
            return
        }
        heard = false
        let ping = WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
        context.writeAndFlush(wrapOutboundOut(ping), promise: nil)
    }
}
