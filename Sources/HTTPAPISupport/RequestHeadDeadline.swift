import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import SDLProtocol

/// Closes a connection whose first request head is not complete within a deadline (the
/// gateway's `limits.requestHeadTimeout`; the control APIs' 10 s), answering
/// `408 request-head-timeout` first.
///
/// The HTTP server bounds a keep-alive connection between requests (its idle timeout), but
/// its idle timer only starts once the first request head has been read: until then the HTTP
/// decoder waits to see whether the request upgrades to a WebSocket. A client that connects and
/// sends nothing, or one byte of its request line now and then, would hold the connection for
/// ever. This handler sits first in the pipeline, before the decoder, so it sees the raw bytes:
/// it is armed when the connection becomes active and removes itself at the blank line that ends
/// the first head (CRLF CRLF, or LF LF as lenient parsers accept), costing nothing afterwards.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    private let logger: Logger
    private var timer: Scheduled<Void>?
    private var scanner = HeadEndScanner()

    init(timeout: TimeAmount, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let complete = scanner.scan(unwrapInboundIn(data).readableBytesView)
        context.fireChannelRead(data)
        if complete { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard timer == nil, !scanner.complete else { return }
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            handler.expire(context)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }

    private func expire(_ context: ChannelHandlerContext) {
        timer = nil
        logger.info(
            "closing a connection whose first request head did not arrive in time",
            metadata: ["remote": "\(context.remoteAddress?.description ?? "?")", "timeout_ms": "\(timeout.nanoseconds / 1_000_000)"]
        )
        let response = Self.response(timeout: timeout)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(response)).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    typealias OutboundOut = ByteBuffer

    /// `408 Request Timeout` with an `application/problem+json` body, written as raw HTTP/1.1 (the
    /// HTTP encoder has no request to answer yet).
    static func response(timeout: TimeAmount) -> ByteBuffer {
        let milliseconds = timeout.nanoseconds / 1_000_000
        let body = HTTPProblem.members(
            status: .requestTimeout, code: "request-head-timeout", title: "Request head timeout",
            detail: "the request head did not arrive within \(milliseconds) ms"
        ).serializedBytes()
        var buffer = ByteBuffer()
        buffer.writeString(
            "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/problem+json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        )
        buffer.writeBytes(body)
        return buffer
    }
}

/// Finds the blank line that ends an HTTP/1.1 request head, one chunk at a time. CR LF before the
/// request line is skipped, as RFC 9112 §2.2 allows, so empty lines cannot end a head never started.
public struct HeadEndScanner: Sendable, Hashable {
    private var started = false
    /// Bytes of the line break run seen so far: LF = 1, LF CR = 2.
    private var state = 0
    public private(set) var complete = false

    public init() {}

    /// Feeds the next bytes; true once the head is complete.
    public mutating func scan(_ bytes: some Sequence<UInt8>) -> Bool {
        guard !complete else { return true }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n"):
                if state > 0 {
                    complete = true
                    return true
                }
                if started { state = 1 }
            case UInt8(ascii: "\r"):
                if state == 1 { state = 2 }
            default:
                started = true
                state = 0
            }
        }
        return false
    }
}
