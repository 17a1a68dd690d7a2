import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request body arrives slower than a minimum rate, after a grace
/// period: `bytesPerSecond` on average since the request head, checked every second while a body
/// is in progress (as Kestrel's MinRequestBodyDataRate).
///
/// The idle timeout ends a body that stops, but every byte restarts it, so a body trickled one
/// byte a minute was bounded by nothing; nor does an early answer end it, since the server reads
/// a request's body to its end before the next request. Between requests and inside a
/// response nothing is measured: a kept-alive connection, an SSE stream and a slow reader of a
/// large response are the idle timeout's and the event queues' business.
///
/// Only the client's time counts: a second in which the server did not ask for bytes (its route
/// busy, a full buffer holding reads back) is not owed. It sits after the HTTP decoder
/// (Hummingbird's additional channel handlers), where it sees request heads, body parts and ends,
/// and the reads the server asks for on their way to the socket; WebSocket connections never
/// reach it.
public final class MinimumBodyRate: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    /// The rule: at least `bytesPerSecond` on average once `grace` has passed.
    public struct Rule: Sendable, Hashable {
        public var bytesPerSecond: Int
        public var grace: TimeAmount
        /// How often the rate is checked.
        public var interval: TimeAmount

        /// 1 KiB/s after 10 s: a 1 MiB JSON body may take 17 minutes, a 64 MiB file 18 hours
        /// at worst; a body dribbled slower than a modem is cut.
        public static let `default` = Rule(bytesPerSecond: 1024, grace: .seconds(10), interval: .seconds(1))

        public init(bytesPerSecond: Int, grace: TimeAmount, interval: TimeAmount) {
            self.bytesPerSecond = bytesPerSecond
            self.grace = grace
            self.interval = interval
        }

        /// Whether `received` bytes `elapsed` after the head are too few.
        public func isTooSlow(received: Int, elapsed: TimeAmount) -> Bool {
            guard bytesPerSecond > 0, elapsed > grace else { return false }
            let owed = Double(bytesPerSecond) * Double((elapsed - grace).nanoseconds) / 1e9
            return Double(received) < owed
        }
    }

    private let rule: Rule
    private let logger: Logger
    /// The body in progress: when its head came and how many bytes arrived since.
    private var started: NIODeadline?
    private var received = 0
    private var timer: RepeatedTask?
    /// The server asked for bytes since the last check, or still waits for some.
    private var asked = false
    private var reading = false

    public init(rule: Rule = .default, logger: Logger) {
        self.rule = rule
        self.logger = logger
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            // Measured from the head; watched from the first body part (a request without a
            // body costs no timer, a body that never starts is the idle timeout's).
            started = context.eventLoop.now
            received = 0
        case .body(let bytes):
            received += bytes.readableBytes
            if timer == nil, started != nil { arm(context) }
        case .end:
            disarm()
        }
        context.fireChannelRead(data)
    }

    public func read(context: ChannelHandlerContext) {
        asked = true
        reading = true
        context.read()
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        reading = false
        context.fireChannelReadComplete()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    private func arm(_ context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: rule.interval, delay: rule.interval) { _ in
            let (handler, context) = loopBound.value
            handler.check(context)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
        started = nil
    }

    private func check(_ context: ChannelHandlerContext) {
        guard let start = started else { return }
        // A second in which the server asked for nothing is not the client's: move the start on.
        if !asked && !reading {
            started = start + rule.interval
            return
        }
        asked = false
        let elapsed = context.eventLoop.now - start
        guard rule.isTooSlow(received: received, elapsed: elapsed) else { return }
        logger.info(
            "closing a connection whose request body arrives too slowly",
            metadata: [
                "remote": "\(context.remoteAddress?.description ?? "?")", "body_bytes": "\(received)",
                "elapsed_ms": "\(elapsed.nanoseconds / 1_000_000)", "minimum_bytes_per_second": "\(rule.bytesPerSecond)",
            ]
        )
        disarm()
        context.close(promise: nil)
    }
}
