import HTTPAPISupport
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import SDLProtocol

/// Answers a refused WebSocket upgrade with the problem the WebSocket router gave (401 without a
/// valid token, 403 for an origin not allowed, 404 for an unknown app, 429, 400 for a bad query)
/// instead of the empty `400` hummingbird-websocket writes for every refused upgrade. The README
/// promises the same answers over HTTP and WebSocket (Tokens and browsers).
///
/// ``UpgradeRefusalRecorder`` hands the refusal over while the upgrade is being decided; when
/// hummingbird-websocket then writes its empty 400, this handler writes the refusal's head and
/// body in its place. It sits at the end of the pipeline set up for the first request and
/// removes itself when the first message passes it without a refusal (a request that stays
/// HTTP, the first frame of an upgraded connection), so it costs nothing afterwards.
final class RefusedUpgradeAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    /// What passes outbound while a refusal is being answered (nothing else is unwrapped: the
    /// frames of an upgraded connection pass untouched).
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The answer to write instead of Hummingbird's empty 400 (set on the connection's loop).
    var refusal: Refusal?

    struct Refusal: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        // With a refusal the request head passes on its way to the failed upgrade's answer: stay for it.
        if refusal == nil { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let refusal else {
            context.write(data, promise: promise)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head:
            context.write(wrapOutboundOut(.head(refusal.head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(refusal.body))), promise: promise)
        case .body:
            // Hummingbird's answer has no body; the refusal's was written with the head.
            promise?.succeed()
        case .end:
            context.write(data, promise: promise)
        }
    }

    /// The refusal for `response`: its status and headers with the security headers, the
    /// length of its body, `Connection: close` (the connection ends after it).
    static func refusal(_ response: HTTPResponse, body: ByteBuffer) -> Refusal {
        var fields = response.headerFields
        SecurityHeaders.apply(to: &fields)
        fields[.contentLength] = String(body.readableBytes)
        fields[.connection] = "close"
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: field.name.rawName, value: field.value) }
        let status = HTTPResponseStatus(statusCode: response.status.code, reasonPhrase: response.status.reasonPhrase)
        return Refusal(head: HTTPResponseHead(version: .http1_1, status: status, headers: headers), body: body)
    }
}

/// The WebSocket router's responder, recording each refusal (any answer but the `200` that lets
/// the upgrade go on) in the connection's ``RefusedUpgradeAnswer``.
struct UpgradeRefusalRecorder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == GatewayRequestContext {
    typealias Context = GatewayRequestContext

    let inner: Inner

    func respond(to request: Request, context: Context) async throws -> Response {
        let response: Response
        do {
            response = try await inner.respond(to: request, context: context)
        } catch {
            let problem = GatewayError(.internalError, "the WebSocket upgrade failed").problem
            await Self.record(
                HTTPResponse(status: .internalServerError, headerFields: [.contentType: "application/problem+json"]),
                body: ByteBuffer(bytes: problem.serializedBytes()), on: context.channel)
            throw error
        }
        guard response.status != .ok else { return response }
        let collector = BodyCollector()
        try await response.body.write(collector)
        await Self.record(response.head, body: collector.bytes.buffer, on: context.channel)
        return response
    }

    static func record(_ head: HTTPResponse, body: ByteBuffer, on channel: any Channel) async {
        let refusal = RefusedUpgradeAnswer.refusal(head, body: body)
        try? await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.handler(type: RefusedUpgradeAnswer.self).refusal = refusal
        }.get()
    }

    /// Collects a (small) problem body.
    struct BodyCollector: ResponseBodyWriter {
        final class Bytes {
            var buffer = ByteBuffer()
        }
        let bytes = Bytes()

        mutating func write(_ buffer: ByteBuffer) async throws {
            var buffer = buffer
            bytes.buffer.writeBuffer(&buffer)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

/// A server child channel that sets each connection up as `inner` does (HTTP/1.1 with WebSocket
/// upgrades), then puts ``RefusedUpgradeAnswer`` at the end of its pipeline.
struct RefusedUpgradeAnswerChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(RefusedUpgradeAnswer())
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
