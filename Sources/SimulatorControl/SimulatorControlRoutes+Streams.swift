import HTTPAPISupport
import HTTPTypes
import HeadUnitModel
import HeadUnitSimulator
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import SDLProtocol

/// Projection on the simulated head unit (docs/protocol.md §k, "Streaming services"): what an
/// app streamed on the video and audio services, live or as its last bytes, and the driver's
/// touches on its video (OnTouchEvent).
///
/// - `GET /apps/{appID}/video.h264`, `GET /apps/{appID}/audio.pcm`: the last bytes received
///   (at most `simulate --stream-keep`), with `SDL-Stream-Bytes` (payload bytes received in all),
///   `SDL-Stream-Frames` (data frames) and `SDL-Stream-State` (`streaming` or `stopped`); 404
///   `stream-not-found` when the app never started the service.
/// - `GET /apps/{appID}/video`, `GET /apps/{appID}/audio` as a WebSocket (``LiveStreamFeed``):
///   one binary message per piece of the data received since the previous one, live; a reader
///   slower than the stream gets `{"type":"gap","bytes":N}` in place of the bytes it lost; a
///   message from the reader closes it with 1003. Without an upgrade: 426.
/// - `POST /apps/{appID}/touch`: OnTouchEvent to the app, `{"sent": N}`.
extension SimulatorControlRoutes {
    /// The operations of the stream and touch routes (part of ``operations``).
    static let streamOperations = [
        APIOperation("GET", "apps/{appID}/video.h264"), APIOperation("GET", "apps/{appID}/audio.pcm"),
        APIOperation("GET", "apps/{appID}/video"), APIOperation("GET", "apps/{appID}/audio"),
        APIOperation("POST", "apps/{appID}/touch"),
    ]

    /// The kept bytes' media types: H.264 Annex B, and SDL's raw little-endian PCM.
    static let streamMediaTypes: [StreamService: String] = [.video: "video/h264", .audio: "application/octet-stream"]

    func addStreamRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        for (service, file) in [(StreamService.video, "video.h264"), (.audio, "audio.pcm")] {
            router.get(RouterPath("apps/:appID/\(file)")) { request, context -> Response in
                let named = try context.parameters.decoded("appID")
                let record = try simulator.perform { unit, _ in
                    let app = try Self.control { try unit.requireApp(resolveApp(named, in: unit).appID) }
                    guard let record = app.streams[service] else {
                        throw HTTPProblem(
                            status: .notFound, code: "stream-not-found", title: "Nothing was streamed",
                            detail: "the app \(app.appID) never started the \(service.rawValue) streaming service"
                        )
                    }
                    return (record, [])
                }
                return Self.streamResponse(record, service: service, request: request)
            }
            router.get(RouterPath("apps/:appID/\(service.rawValue)")) { _, _ -> Response in
                HTTPProblem.response(
                    status: .upgradeRequired, code: "websocket-required", title: "Open a WebSocket",
                    detail: "GET …/\(service.rawValue) is a live WebSocket feed of the stream; …/\(file) answers its last bytes",
                    headers: [.upgrade: "websocket", .connection: "Upgrade"]
                )
            }
        }
        router.post("apps/:appID/touch") { request, context -> SDLJSON in
            let named = try context.parameters.decoded("appID")
            let touches = try Self.touches(try await Self.touchBody(request))
            return try simulator.perform { unit, now in
                let appID = try resolveApp(named, in: unit).appID
                let (sent, actions) = try Self.control { try unit.touch(appID: appID, touches, now: now) }
                return (["sent": .int(Int64(sent))], actions)
            }
        }
    }

    /// The live feeds (`GET /apps/{appID}/video` and `/audio` upgraded to a WebSocket), for a
    /// WebSocket router; the app must be registered when the upgrade is asked for (else 404).
    public func addWebSocketRoutes<Context: WebSocketRequestContext>(to router: some RouterMethods<Context>) {
        for service in StreamService.allCases {
            router.ws(
                RouterPath("apps/:appID/\(service.rawValue)"),
                shouldUpgrade: { request, context in
                    let named = try context.parameters.decoded("appID")
                    _ = try simulator.perform { unit, _ in (try resolveApp(named, in: unit), []) }
                    return .upgrade(WebSocketSubprotocol.upgradeHeaders(offered: request.headers[values: .secWebSocketProtocol]))
                },
                onUpgrade: { inbound, outbound, context in
                    guard let named = try? context.requestContext.parameters.decoded("appID") else { return }
                    guard let appID = try? simulator.perform({ unit, _ in (try resolveApp(named, in: unit).appID, []) }) else {
                        try await outbound.close(.normalClosure, reason: "the app is gone")
                        return
                    }
                    try await Self.feed(simulator, appID: appID, service, inbound: inbound, outbound: outbound)
                }
            )
        }
    }

    /// Sends the stream until the app goes away (1000), the client leaves, or it sends a message (1003).
    static func feed(
        _ simulator: SimulatedHeadUnit, appID: String, _ service: StreamService, inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter
    ) async throws {
        try await LiveStreamFeed.run(inbound, outbound, endReason: "the app is gone") { send in
            try await simulator.followStream(appID: appID, service) { piece in try await send(piece) }
        }
    }

    static func streamResponse(_ record: StreamRecord, service: StreamService, request: Request) -> Response {
        let bytes = record.tail.bytes()
        var headers = HTTPFields()
        headers[.contentType] = streamMediaTypes[service]
        headers[.contentLength] = String(bytes.readableBytes)
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = "sandbox"
        headers[Self.streamBytesHeader] = String(record.bytes)
        headers[Self.streamFramesHeader] = String(record.frames)
        headers[Self.streamStateHeader] = record.isStreaming ? "streaming" : "stopped"
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: bytes))
    }

    static let streamBytesHeader = HTTPField.Name("SDL-Stream-Bytes")!
    static let streamFramesHeader = HTTPField.Name("SDL-Stream-Frames")!
    static let streamStateHeader = HTTPField.Name("SDL-Stream-State")!

    /// The touch body: one touch object, `{"events": […]}`, or an array of touches.
    static func touchBody(_ request: Request) async throws -> [SDLJSON] {
        let buffer = try await request.body.collect(upTo: maximumBodySize)
        guard buffer.readableBytes > 0 else {
            throw HTTPProblem.invalidBody("a touch, {\"events\": [touches]} or an array of touches is required")
        }
        guard JSONContentType.accepts(request.headers[.contentType]) else {
            throw HTTPProblem(
                status: .unsupportedMediaType, code: "unsupported-media-type", title: "Unsupported media type",
                detail: "send JSON bodies with Content-Type: application/json"
            )
        }
        let value: SDLJSON
        do throws(SDLProtocolError) {
            value = try SDLJSON.parse(buffer)
        } catch {
            throw HTTPProblem.invalidBody(error.jsonBodyDetail(in: buffer.readableBytesView))
        }
        switch value {
        case .array(let touches):
            return touches
        case .object(let object) where object["events"] != nil:
            guard object.count == 1, case .array(let touches) = object["events"]! else {
                throw HTTPProblem.invalidBody("events must be an array of touches, and the only member")
            }
            return touches
        case .object:
            return [value]
        default:
            throw HTTPProblem.invalidBody("the body must be a touch object, {\"events\": [touches]} or an array of touches")
        }
    }

    /// Each touch `{"type", "x", "y", "id"}`: `type` a string, `x` and `y` integers, `id` an
    /// integer (0 when left out); the head unit checks their values (422).
    static func touches(_ values: [SDLJSON]) throws -> [TouchInput] {
        try values.enumerated().map { index, value in
            guard case .object(let touch) = value else { throw HTTPProblem.invalidBody("touch \(index) is not an object") }
            if let unknown = Set(touch.keys).subtracting(["type", "x", "y", "id"]).sorted().first {
                throw HTTPProblem.invalidBody("touch \(index): unknown member \(unknown); expected id, type, x, y")
            }
            guard let type = try string(value, "type") else { throw HTTPProblem.invalidBody("touch \(index): type is required") }
            guard let x = try int(value, "x"), let y = try int(value, "y") else {
                throw HTTPProblem.invalidBody("touch \(index): x and y are required")
            }
            return TouchInput(type: type, x: x, y: y, id: try int(value, "id") ?? 0)
        }
    }
}
