import NIOCore
import NIOWebSocket

/// Turns WebSocket frames into SDL bytes and back, the way SDL Core's WebSocket server for apps
/// exchanges them (docs/protocol.md §e "WebSocket server for apps"):
///
/// - an inbound binary message (reassembled by `NIOWebSocketFrameAggregator` in front of this
///   handler) is passed on as one `ByteBuffer`; the SDL frame decoder behind treats it like
///   bytes from TCP, as Core does;
/// - each outbound `ByteBuffer` becomes exactly one binary message in one frame, masked with a
///   fresh random key on the client side and unmasked on the server side (RFC 6455 §5.3);
/// - a ping is answered with a pong carrying its data, a pong is ignored;
/// - a close frame is echoed with its status code and the connection closed;
/// - a text message is a protocol error: close 1003 (unacceptable data), and
///   ``SDLTransportError/Code/webSocketProtocolViolation`` is raised;
/// - a message above the aggregator's bound: close 1009 (message too big), and
///   ``SDLTransportError/Code/messageTooLarge`` is raised;
/// - closing the channel from this side first sends close 1000 (normal closure).
///
/// With ``SDLWebSocket/MessageKind/text`` the roles of binary and text swap: SDL Core's HMI
/// WebSocket (port 8087) carries JSON-RPC in text messages, and a binary message is the violation.
public final class SDLWebSocketFrameHandler: ChannelDuplexHandler {
    public typealias InboundIn = WebSocketFrame
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = WebSocketFrame

    private let role: SDLWebSocket.Role
    private let messages: SDLWebSocket.MessageKind
    /// A close frame went out: nothing else may follow it (RFC 6455 §5.5.1).
    private var closeSent = false

    public init(role: SDLWebSocket.Role, messages: SDLWebSocket.MessageKind = .binary) {
        self.role = role
        self.messages = messages
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        switch frame.opcode {
        case .binary where messages == .binary, .text where messages == .text:
            context.fireChannelRead(Self.wrapInboundOut(frame.unmaskedData))
        case .ping:
            guard !closeSent else { return }
            context.writeAndFlush(Self.wrapOutboundOut(makeFrame(.pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            break
        case .connectionClose:
            var data = frame.unmaskedData
            // Echo the status code (and nothing else) when there is one (RFC 6455 §5.5.1).
            let code = data.readableBytes >= 2 ? data.readSlice(length: 2) : nil
            closeAndShutDown(context: context, data: code ?? ByteBuffer(), mode: .all, promise: nil)
        case .text:
            fail(
                context: context,
                code: .unacceptableData,
                SDLTransportError(.webSocketProtocolViolation, "a text message arrived; SDL frames travel in binary messages")
            )
        case .binary:
            fail(
                context: context,
                code: .unacceptableData,
                SDLTransportError(.webSocketProtocolViolation, "a binary message arrived; JSON-RPC travels in text messages")
            )
        default:
            fail(
                context: context,
                code: .protocolError,
                SDLTransportError(.webSocketProtocolViolation, "an unexpected WebSocket frame with opcode \(frame.opcode)")
            )
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closeSent else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let bytes = Self.unwrapOutboundIn(data)
        context.write(Self.wrapOutboundOut(makeFrame(messages == .text ? .text : .binary, data: bytes)), promise: promise)
    }

    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, !closeSent, context.channel.isActive else {
            context.close(mode: mode, promise: promise)
            return
        }
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .normalClosure)
        closeAndShutDown(context: context, data: data, mode: mode, promise: promise)
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge, NIOWebSocketFrameAggregator.Error.tooManyFragments:
            fail(
                context: context, code: .messageTooLarge, SDLTransportError(.messageTooLarge, "a WebSocket message was too large: \(error)")
            )
        case let error as NIOWebSocketFrameAggregator.Error:
            fail(context: context, code: .protocolError, SDLTransportError(.webSocketProtocolViolation, "bad message fragments: \(error)"))
        case NIOWebSocketError.invalidFrameLength:
            // WebSocketProtocolErrorHandler in front already sent close 1009 and closes.
            closeSent = true
            context.fireErrorCaught(SDLTransportError(.messageTooLarge, "a WebSocket frame was above the size limit"))
        case is NIOWebSocketError:
            // WebSocketProtocolErrorHandler in front already sent close 1002 and closes.
            closeSent = true
            context.fireErrorCaught(SDLTransportError(.webSocketProtocolViolation, "\(error)"))
        default:
            context.fireErrorCaught(error)
        }
    }

    /// Sends close `code`, closes the connection, and raises `error`.
    private func fail(context: ChannelHandlerContext, code: WebSocketErrorCode, _ error: SDLTransportError) {
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        closeAndShutDown(context: context, data: data, mode: .all, promise: nil)
        context.fireErrorCaught(error)
    }

    /// Sends one close frame with `data` (unless one went out already), then closes once it is
    /// written, so the close frame is not dropped with the connection.
    private func closeAndShutDown(context: ChannelHandlerContext, data: ByteBuffer, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard !closeSent else {
            context.close(mode: mode, promise: promise)
            return
        }
        closeSent = true
        let loopBoundContext = context.loopBound
        context.writeAndFlush(Self.wrapOutboundOut(makeFrame(.connectionClose, data: data))).whenComplete { _ in
            loopBoundContext.value.close(mode: mode, promise: promise)
        }
    }

    private func makeFrame(_ opcode: WebSocketOpcode, data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: role == .client ? .random() : nil, data: data)
    }
}

@available(*, unavailable)
extension SDLWebSocketFrameHandler: Sendable {}
