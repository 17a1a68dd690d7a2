import NIOCore
import NIOWebSocket

/// In an event WebSocket's pipeline just after the frame decoder: puts an empty text message
/// behind the frames the client sent when ``WebSocketEventPump`` finds the stream ended, so the
/// task reading the client's messages learns of the end without a task of its own waiting for it
/// (``WebSocketEventPump/hasEnded``).
///
/// The message goes between two of the client's messages, never inside one (RFC 6455 §5.4: a
/// message's frames come with only control frames between them): while a message is under way,
/// the end waits for its last frame, at most ``messageGrace``. A client whose message is still
/// unfinished then (it sent a first frame and nothing of the rest, only pongs) gets the close frame
/// here, 1001 with the same reason, and the connection is closed once that frame is written, or
/// ``closeGrace`` later if it is not read: it does not hold its client slot after its stream ended.
final class StreamEndMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// How long the end waits for the client's message under way to end.
    static let messageGrace = TimeAmount.seconds(15)
    /// How long the close frame of a client cut off mid-message may wait to be written.
    static let closeGrace = TimeAmount.seconds(5)
    /// The close frame's reason, as the route's own close says it.
    static let reason = "the event stream ended"

    private let messageGrace: TimeAmount
    private let closeGrace: TimeAmount
    private var context: ChannelHandlerContext?
    /// A data message of the client's has begun and not ended.
    private var inMessage = false
    /// ``mark()`` waits for the client's message under way to end, until this timer fires.
    private var pending: Scheduled<Void>?

    init(messageGrace: TimeAmount = StreamEndMarker.messageGrace, closeGrace: TimeAmount = StreamEndMarker.closeGrace) {
        self.messageGrace = messageGrace
        self.closeGrace = closeGrace
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        pending?.cancel()
        pending = nil
    }

    /// Sends the empty text message up now, or after the client's message under way.
    func mark() {
        guard let context else { return }
        guard !inMessage else {
            guard pending == nil else { return }
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            pending = context.eventLoop.scheduleTask(in: messageGrace) { handler.value.cutOff() }
            return
        }
        context.fireChannelRead(Self.wrapInboundOut(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer())))
        // Outside a read: what reads the channel hands its reads on at their completion.
        context.fireChannelReadComplete()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        context.fireChannelRead(data)
        switch frame.opcode {
        case .text, .binary, .continuation:
            inMessage = !frame.fin
            if !inMessage, let pending {
                pending.cancel()
                self.pending = nil
                mark()
            }
        default: break
        }
    }

    /// The client's message did not end within ``messageGrace``: closes with 1001 from here (the
    /// route's task is inside the client's message and cannot), after the frames written before.
    private func cutOff() {
        pending = nil
        guard let context else { return }
        var data = context.channel.allocator.buffer(capacity: 2 + Self.reason.utf8.count)
        data.write(webSocketErrorCode: .goingAway)
        data.writeString(Self.reason)
        let channel = context.channel
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(Self.wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: written)
        // Closed once the frame is written, or without it when the client reads nothing.
        let cap = context.eventLoop.scheduleTask(in: closeGrace) { channel.close(promise: nil) }
        written.futureResult.whenComplete { _ in
            cap.cancel()
            channel.close(promise: nil)
        }
    }
}
