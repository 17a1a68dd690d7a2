import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import SDLProtocol

/// Answers a first request head that the HTTP decoder refuses (headers over Hummingbird's limits
/// of 80 KiB and 1,000 fields, a malformed request line) with a problem and closes the connection:
/// 431 `headers-too-large` for headers over the limits, else 400 `invalid-request`.
///
/// A server with WebSocket upgrades does not know, until the first head is decoded, whether the
/// connection stays HTTP; until then its pipeline ends at NIO's upgrade handler, which passes
/// decoder errors on to the end of the pipeline, where NIO drops them. Hummingbird answers
/// decoder errors with 400 only once the connection is HTTP. So a client whose first head was
/// refused got no answer and its connection stayed open for ever: the idle timer starts with the
/// first head, and ``RequestHeadDeadline`` ends at the head's blank line. One oversized header
/// per connection could hold connections without limit.
///
/// This handler sits after the upgrade handler and removes itself when the first message passes
/// it (the first head handed on to HTTP, or the first WebSocket frame after an upgrade), so it
/// costs nothing afterwards and later requests keep Hummingbird's own answer. Closing the
/// connection fails the pending upgrade, which hummingbird-websocket logs at error level
/// ("Error handling upgrade result"): one line per refused head.
final class MalformedHeadAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundOut = HTTPServerResponsePart

    private let logger: Logger
    private var answered = false

    init(logger: Logger) {
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // The decoder reports every later byte as an error too: answer once.
        guard !answered else { return }
        answered = true
        logger.debug("closing a connection whose first request head is not valid HTTP/1.1", metadata: ["error": "\(parserError)"])
        let (head, body) = Self.response(for: parserError)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    /// The problem for a refused head: 431 `headers-too-large` or 400 `invalid-request`.
    static func response(for error: HTTPParserError) -> (HTTPResponseHead, ByteBuffer) {
        let (status, code, title, detail): (HTTPResponse.Status, String, String, String) =
            error == .headerOverflow
            ? (
                .requestHeaderFieldsTooLarge, "headers-too-large", "Request header fields too large",
                "the request head is larger than the server accepts (80 KiB of headers, 1,000 fields)"
            )
            : (.badRequest, "invalid-request", "Invalid request", "the request head is not valid HTTP/1.1 (\(error))")
        let body = HTTPProblem.members(status: status, code: code, title: title, detail: detail).serializedBytes()
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/problem+json")
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Connection", value: "close")
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: status.code, reasonPhrase: status.reasonPhrase), headers: headers)
        return (head, ByteBuffer(bytes: body))
    }
}

/// A server child channel that sets each connection up as `inner` does (HTTP/1.1 with WebSocket
/// upgrades), then puts ``MalformedHeadAnswer`` at the end of its pipeline.
public struct MalformedHeadAnswerChannel<Inner: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Inner.Value

    let inner: Inner

    public init(inner: Inner) {
        self.inner = inner
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(MalformedHeadAnswer(logger: logger))
            return value
        }
    }

    public func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
