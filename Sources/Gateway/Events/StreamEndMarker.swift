import NIOCore
import NIOWebSocket

/// In an event WebSocket's pipeline just after the frame decoder: puts an empty text message
/// behind the frames the client sent when ``WebSocketEventPump`` finds the stream ended, so the
/// task reading the client's messages learns of the end without a task of its own waiting for it
/// (``WebSocketEventPump/hasEnded``).
///
/// The message goes between two of the client's messages, never inside one (RFC 6455 §5.4: a
/// message's frames come with only control frames between them): while a message is under way,
/// the end waits for its last frame. A client that never finishes its message is closed by the
/// server's shutdown, or by its own message limit.
final class StreamEndMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    private var context: ChannelHandlerContext?
    /// A data message of the client's has begun and not ended.
    private var inMessage = false
    /// ``mark()`` waits for the client's message under way to end.
    private var pending = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Sends the empty text message up now, or after the client's message under way.
    func mark() {
        guard let context else { return }
        guard !inMessage else {
            pending = true
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
            if !inMessage, pending {
                pending = false
                mark()
            }
        default: break
        }
    }
}
