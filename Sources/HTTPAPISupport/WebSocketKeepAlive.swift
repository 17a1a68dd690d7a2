import NIOCore
import NIOHTTP1

/// Pings a WebSocket client every ``period`` from its connection's event loop and closes the
/// connection (with a close frame, 1001) when a whole period after a ping passed without a byte
/// from the client: a pong (RFC 6455 §5.5.3) or anything else it sent. Dead clients (a laptop
/// closed, a network gone) are found this way, and proxies that close idle connections see traffic.
///
/// Every served connection gets one, last in its pipeline (``ServedConnectionChannel``), so no
/// WebSocket route can forget it. It waits there, passing everything on, until the connection is
/// upgraded to a WebSocket (NIO's `HTTPServerUpgradeEvents.upgradeComplete`); HTTP connections
/// never start its timer. The upgrade appends the WebSocket frame encoder and decoder after it, so
/// it sees the client's bytes before the decoder (a frame still arriving counts, and so does one a
/// route's handler takes before the WebSocket library sees it) and writes its ping as the two
/// bytes of an empty ping frame (§5.5.2; a server's frames are not masked). The encoder writes a
/// frame's pieces in one call on the same loop, so a ping never lands inside another frame.
///
/// Instead of the WebSocket library's own pings, which run a task per connection that sleeps
/// between pings: a task, its stack and its timer for each of 10,000 idle event clients (about
/// 2.5 KiB each), where a timer on the connection's loop costs a scheduled closure.
public final class WebSocketKeepAlive: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = NIOAny
    public typealias OutboundOut = ByteBuffer

    /// The time between pings, and what a client has to answer one.
    public static let period: TimeAmount = .seconds(20)

    /// An empty ping frame (RFC 6455 §5.2: FIN and opcode 0x9, no mask, no payload).
    static let ping: [UInt8] = [0x89, 0x00]

    /// What a client that answered no ping is told before it is closed: a close frame (§5.5.1,
    /// opcode 0x8) with 1001 and the reason; a live client behind a broken path may still read it.
    static let timeoutReason = "no answer to ping"
    /// 1001, going away (§7.4.1).
    static let timeoutCode: UInt16 = 1001
    static let timeoutClose: [UInt8] =
        [0x88, UInt8(2 + timeoutReason.utf8.count), UInt8(timeoutCode >> 8), UInt8(timeoutCode & 0xFF)] + Array(timeoutReason.utf8)

    private let period: TimeAmount
    /// Bytes arrived since the last ping.
    private var heard = true
    private var timer: RepeatedTask?

    /// The timer is running: from the upgrade until the connection goes or the handler is removed.
    var isPinging: Bool { timer != nil }

    public init(period: TimeAmount = WebSocketKeepAlive.period) {
        self.period = period
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let upgrade = event as? HTTPServerUpgradeEvents, case .upgradeComplete(let toProtocol, _) = upgrade,
            toProtocol.lowercased() == "websocket"
        {
            if context.channel.isActive { start(context) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
    /// takes nothing costs no more than what its route bounds (an event client's queue).
    private func tick(_ context: ChannelHandlerContext) {
        guard context.channel.isWritable else { return }
        guard heard else {
            stop()
            // Written at the flush when the socket takes it (a live client behind a broken path
            // reads it); a dead client's full socket loses it at the close, which does not wait.
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Self.timeoutClose)), promise: nil)
            context.close(promise: nil)
            return
        }
        heard = false
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: Self.ping)), promise: nil)
    }
}
