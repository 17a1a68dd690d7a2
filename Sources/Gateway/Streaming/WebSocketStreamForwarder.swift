import NIOCore
import NIOWebSocket
import Synchronization

/// Hands the binary frames of a streaming WebSocket (README "Projection") to the head-unit link
/// on the WebSocket's own event loop, as they leave NIO's decoder (and ``WebSocketUnmask``):
/// no task wakes up per message, and a message is not gathered first, since a service's data is
/// one stream of bytes (docs/protocol.md §o) whichever way the client cut it.
///
/// **Backpressure.** `forward` answers whether more may follow now. When it may not, the
/// forwarder holds the channel's reads (the outbound `read`, as NIO's `BackPressureHandler`
/// does) until the link calls back, so a slow head unit stops the client instead of growing the
/// gateway's memory: at most what one read brought is decoded meanwhile.
///
/// **Order.** Frames that reached Hummingbird before the forwarder was installed are still sent
/// by the route (``StreamRoutes/webSocket(_:app:_:_:on:)``, one message at a time), and so are
/// the continuation frames of a message it has begun. At the first frame that starts a new
/// message, the forwarder puts a text frame with a random ``Handle/marker`` behind what
/// Hummingbird holds and starts **holding**: it keeps what arrives and holds the reads. When the
/// route reads the marker, everything before it was sent; ``Handle/start()`` then forwards what
/// was kept, in order, and everything after. A client cannot send the marker: it is new for each
/// connection, and any other text message closes the WebSocket with 1003 as before.
///
/// **Messages.** Binary messages (RFC 6455 §5.4: a binary frame and its continuations) are
/// forwarded. Text messages, control frames, frames with reserved bits set (§5.2: no extension
/// is negotiated) and frames out of sequence go on to Hummingbird, which answers them as it did.
///
/// **The end.** When `forward` throws (the head unit ended the service, the link went), the
/// forwarder stops and puts the ``Handle/failureMarker`` behind what Hummingbird holds; the
/// route reads it and closes with the error's detail (``Handle/failure``). When the route ends,
/// whatever way, it stops the forwarder (``Handle/stop()``) before it gives up the service, so a
/// later sender's bytes never mix with this one's. Stopped, the forwarder drops binary frames and
/// reads on, so that the close handshake sees the client's close.
final class WebSocketStreamForwarder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Sends a piece of the stream on: true when more may follow now; otherwise false, and the
    /// callback, when there is one, is called once, from any thread, when more may follow.
    typealias Forward = @Sendable (_ bytes: ByteBuffer, _ whenReady: (@Sendable () -> Void)?) throws -> Bool

    private enum Mode {
        /// Installed: frames go on to the route until a new message starts.
        case passing
        /// The marker went behind the route's frames: the frames that came since, in order.
        case holding([WebSocketFrame])
        case forwarding
        /// The route ended, or `forward` threw: binary messages are dropped.
        case stopped
    }

    /// Where the current data message goes (RFC 6455 §5.4), while its frames come.
    private enum Message {
        case forwarded
        case passedOn
    }

    private let forward: Forward
    /// The markers and the failure, shared with the route's ``Handle``.
    let handle = Handle.Shared()
    private var mode = Mode.passing
    /// The data message under way (a first frame without FIN came); nil between messages.
    private var message: Message?
    /// `forward` asked to hold back and has not called back yet.
    private var waiting = false
    /// A read the channel asked for while holding or waiting.
    private var readHeld = false
    private var context: ChannelHandlerContext?
    /// Calls ``ready()`` on the channel's loop; set while the handler is in the pipeline.
    private var whenReady: (@Sendable () -> Void)?

    init(forward: @escaping Forward) {
        self.forward = forward
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        whenReady = { loop.execute { handler.value.ready() } }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Ends the cycle through `whenReady`; a callback still to come finds nothing to resume.
        self.context = nil
        whenReady = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        switch mode {
        case .passing:
            guard frame.opcode == .binary || frame.opcode == .text else {
                context.fireChannelRead(data)
                return
            }
            fireText(handle.marker, context: context)
            mode = .holding([frame])
        case .holding(var kept):
            mode = .forwarding  // `kept` is not copied on append
            kept.append(frame)
            mode = .holding(kept)
        case .forwarding, .stopped:
            _ = route(frame, context: context)
        }
    }

    /// Reads wait while the forwarder holds what comes or `forward` asked to hold back.
    private var holdsReads: Bool {
        if case .holding = mode { return true }
        return waiting
    }

    func read(context: ChannelHandlerContext) {
        if holdsReads {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// The route has read the marker: forwards what was kept, then everything as it comes.
    func start() {
        guard case .holding(let kept) = mode else { return }
        mode = .forwarding
        replay(kept)
    }

    /// The route has ended: binary messages are dropped from now on, the rest goes on.
    func stop() {
        let kept: [WebSocketFrame]
        if case .holding(let frames) = mode { kept = frames } else { kept = [] }
        mode = .stopped
        waiting = false
        replay(kept)
    }

    /// Routes frames that were kept (outside a read, so the read's end is signalled here if any
    /// went on: NIOAsyncChannel hands reads to its reader only then), then lets reads go on.
    private func replay(_ frames: [WebSocketFrame]) {
        var passedOn = false
        for frame in frames where route(frame, context: context) { passedOn = true }
        if passedOn { context?.fireChannelReadComplete() }
        resumeReads()
    }

    /// Forwards the frame, or passes it on (true), or drops it (stopped).
    private func route(_ frame: WebSocketFrame, context: ChannelHandlerContext?) -> Bool {
        let reserved = frame.rsv1 || frame.rsv2 || frame.rsv3
        let destination: Message
        switch frame.opcode {
        case .binary where message == nil && !reserved:
            destination = .forwarded
        case .continuation where message == .forwarded && !reserved:
            destination = .forwarded
        case .binary, .text, .continuation:
            destination = .passedOn
        default:
            context?.fireChannelRead(Self.wrapInboundOut(frame))
            return true
        }
        message = frame.fin ? nil : destination
        guard destination == .forwarded else {
            context?.fireChannelRead(Self.wrapInboundOut(frame))
            return true
        }
        guard case .forwarding = mode else { return false }
        do {
            if try !forward(frame.unmaskedData, waiting ? nil : whenReady) { waiting = true }
        } catch {
            handle.failed.withLock { $0 = error }
            mode = .stopped
            waiting = false
            if let context {
                fireText(handle.failureMarker, context: context)
                context.fireChannelReadComplete()
            }
            resumeReads()
        }
        return false
    }

    private func fireText(_ text: String, context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        context.fireChannelRead(Self.wrapInboundOut(WebSocketFrame(fin: true, opcode: .text, data: buffer)))
    }

    private func ready() {
        waiting = false
        resumeReads()
    }

    private func resumeReads() {
        guard !holdsReads, readHeld, let context else { return }
        readHeld = false
        context.read()
    }

    /// The route's hold on an installed forwarder.
    struct Handle: Sendable {
        /// What the forwarder and the route share.
        final class Shared: Sendable {
            let marker: String
            let failureMarker: String
            let failed = Mutex<(any Error)?>(nil)
            /// What `forward` threw.
            var failure: (any Error)? { failed.withLock { $0 } }

            init() {
                let nonce = "\(UInt64.random(in: .min ... .max)) \(UInt64.random(in: .min ... .max))"
                marker = "sdl-gateway: forwarding from here \(nonce)"
                failureMarker = "sdl-gateway: forwarding failed \(nonce)"
            }
        }

        fileprivate let shared: Shared
        fileprivate let handler: NIOLoopBound<WebSocketStreamForwarder>

        /// The text the route reads once everything before the forwarder was sent.
        var marker: String { shared.marker }
        /// The text the route reads when forwarding failed: then ``failure`` says why.
        var failureMarker: String { shared.failureMarker }
        /// What `forward` threw.
        var failure: (any Error)? { shared.failure }

        /// Forwards from now on (on the channel's loop, after what it runs already).
        func start() {
            handler.eventLoop.execute { handler.value.start() }
        }

        /// Stops forwarding; returns once the forwarder sends nothing more.
        func stop() async {
            try? await handler.eventLoop.submit { handler.value.stop() }.get()
        }
    }

    /// Puts a forwarder right after ``WebSocketUnmask`` (or, without it, the frame decoder);
    /// nil when the channel has neither or is closed, and the route then sends every message.
    static func install(on channel: any Channel, forward: @escaping Forward) async -> Handle? {
        try? await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let forwarder = WebSocketStreamForwarder(forward: forward)
            if let unmask = try? pipeline.handler(type: WebSocketUnmask.self) {
                try pipeline.addHandler(forwarder, position: .after(unmask))
            } else {
                try pipeline.addHandler(
                    forwarder, position: .after(pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)))
            }
            return Handle(shared: forwarder.handle, handler: NIOLoopBound(forwarder, eventLoop: channel.eventLoop))
        }.get()
    }
}
