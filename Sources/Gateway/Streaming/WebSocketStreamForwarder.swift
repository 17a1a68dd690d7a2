import NIOCore
import NIOWebSocket

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
/// **Order.** Frames that reached Hummingbird's buffer before the forwarder was installed are
/// still sent by the route (``StreamRoutes/webSocket(_:app:_:_:on:)``, one message at a time).
/// So the forwarder starts **holding**: it keeps what arrives, holds the reads, and puts a text
/// frame with a random ``Handle/marker`` behind Hummingbird's buffer. When the route reads the
/// marker, everything before it was sent; ``Handle/start()`` then forwards what was kept, in
/// order, and everything after. A client cannot send the marker: it is new for each connection,
/// and any other text message closes the WebSocket with 1003 as before.
///
/// Control frames, text messages and frames with reserved bits set go on to Hummingbird, which
/// answers them as it did. When `forward` throws (the head unit ended the service, the link
/// went), the error goes down the pipeline, the route's message loop ends with it and closes
/// the WebSocket with its detail; later binary frames are dropped.
final class WebSocketStreamForwarder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Sends a piece of the stream on: true when more may follow now; otherwise false, and the
    /// callback is called once, from any thread, when it may.
    typealias Forward = @Sendable (_ bytes: ByteBuffer, _ whenReady: @escaping @Sendable () -> Void) throws -> Bool

    private enum Mode {
        /// Installed, the route not caught up: the frames that came since, in order.
        case holding([WebSocketFrame])
        case forwarding
        /// `forward` threw: binary frames are dropped.
        case failed
    }

    private let forward: Forward
    private let marker: String
    private var mode = Mode.holding([])
    /// The message under way is binary (its continuation frames are forwarded too).
    private var inBinaryMessage = false
    /// `forward` asked to hold back and has not called back yet.
    private var waiting = false
    /// A read the channel asked for while holding or waiting.
    private var readHeld = false
    private var context: ChannelHandlerContext?
    /// Calls ``ready()`` on the channel's loop; set while the handler is in the pipeline.
    private var whenReady: (@Sendable () -> Void)?

    init(marker: String, forward: @escaping Forward) {
        self.marker = marker
        self.forward = forward
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        whenReady = { loop.execute { handler.value.ready() } }
        var text = context.channel.allocator.buffer(capacity: marker.utf8.count)
        text.writeString(marker)
        context.fireChannelRead(Self.wrapInboundOut(WebSocketFrame(fin: true, opcode: .text, data: text)))
        // NIOAsyncChannel hands reads to its reader at the read's end: without this, the marker
        // would wait for a read that the forwarder holds until the marker is read.
        context.fireChannelReadComplete()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Ends the cycle through `whenReady`; a callback still to come finds nothing to resume.
        self.context = nil
        whenReady = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        guard case .holding(var kept) = mode else {
            handle(frame, context: context)
            return
        }
        mode = .forwarding  // not copied on append
        kept.append(frame)
        mode = .holding(kept)
    }

    func read(context: ChannelHandlerContext) {
        if case .holding = mode {
            readHeld = true
        } else if waiting {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// The route has read the marker: forwards what was kept, then everything as it comes.
    func start() {
        guard case .holding(let kept) = mode, let context else { return }
        mode = .forwarding
        for frame in kept { handle(frame, context: context) }
        resumeReads()
    }

    private func handle(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        switch frame.opcode {
        case .binary: inBinaryMessage = true
        case .text: inBinaryMessage = false
        case .continuation: break
        default:
            context.fireChannelRead(Self.wrapInboundOut(frame))
            return
        }
        guard inBinaryMessage, !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            context.fireChannelRead(Self.wrapInboundOut(frame))
            return
        }
        guard case .forwarding = mode, let whenReady else { return }
        do {
            if try !forward(frame.unmaskedData, whenReady) { waiting = true }
        } catch {
            mode = .failed
            waiting = false
            context.fireErrorCaught(error)
        }
    }

    private func ready() {
        waiting = false
        resumeReads()
    }

    private func resumeReads() {
        guard !waiting, readHeld, let context else { return }
        if case .holding = mode { return }
        readHeld = false
        context.read()
    }

    /// The route's hold on an installed forwarder.
    struct Handle: Sendable {
        /// The text the route reads once everything before the forwarder was sent.
        let marker: String
        fileprivate let handler: NIOLoopBound<WebSocketStreamForwarder>

        /// Forwards from now on (on the channel's loop, after what it runs already).
        func start() {
            handler.eventLoop.execute { handler.value.start() }
        }
    }

    /// Puts a forwarder right after ``WebSocketUnmask`` (or, without it, the frame decoder);
    /// nil when the channel has neither or is closed, and the route then sends every message.
    static func install(on channel: any Channel, forward: @escaping Forward) async -> Handle? {
        let marker = "sdl-gateway: forwarding from here \(UInt64.random(in: .min ... .max)) \(UInt64.random(in: .min ... .max))"
        return try? await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let forwarder = WebSocketStreamForwarder(marker: marker, forward: forward)
            if let unmask = try? pipeline.handler(type: WebSocketUnmask.self) {
                try pipeline.addHandler(forwarder, position: .after(unmask))
            } else {
                try pipeline.addHandler(
                    forwarder, position: .after(pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)))
            }
            return Handle(marker: marker, handler: NIOLoopBound(forwarder, eventLoop: channel.eventLoop))
        }.get()
    }
}
