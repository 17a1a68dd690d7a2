import HTTPAPISupport
import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import SDLClient
import SDLProtocol
import SDLSpec
import ServiceLifecycle
import Synchronization

/// `GET /v1/apps/{id}/events` and `GET /v1/events` (docs/architecture.md, Events): a WebSocket when
/// the request upgrades, Server-Sent Events with `Accept: text/event-stream` (so `curl -N`
/// works). `types=` and `names=` filter; `since=SEQ` (or SSE `Last-Event-ID`) replays the app's
/// kept events after SEQ, after a `gap` for those no longer kept.
///
/// `audio=binary` (WebSocket only) sends each `audioPassThru` event as its envelope without
/// `data.audio`, then the chunk as one binary message: a quarter fewer bytes than base64.
///
/// Over WebSocket a client may also send `{"id","function","params"[,"app"][,"timeout"]}` and
/// gets `{"id","status","response"|"problem"}`, or `{"filter":{"types","names"}}` to change its
/// filter. At most ``maximumRPCsInFlight`` RPCs per client run at once. Each message is
/// authorised by ``AccessPolicy`` like an HTTP request: an RPC needs the control scope.
///
/// A browser authenticates its WebSocket with the subprotocols `sdl-gateway.v1, bearer.<token>`
/// (the server selects `sdl-gateway.v1`) or, like an `EventSource`, with `?ticket=`.
/// An SSE stream ends as soon as its client leaves (``ConnectionCloseWatcher``) and a quiet one
/// gets a comment line every ``GatewayLimits/eventStreamKeepAlive``.
struct EventRoutes: Sendable {
    let apps: GatewayApps
    let limits: GatewayLimits
    let origins: BrowserOriginRule
    /// The HTTP routes' request budget: each message a client sends on an event WebSocket spends
    /// from it as a request would (``RateLimitMiddleware``).
    let rateLimit: RateLimitMiddleware

    static let maximumRPCsInFlight = 16

    struct Stream: Sendable {
        var app: String?
        var filter: EventFilter
        var since: UInt64?
        /// `?audio=binary` (WebSocket only): an `audioPassThru` event's chunk follows its event,
        /// without `data.audio`, as a binary message, instead of base64 inside it.
        var binaryAudio = false
    }

    /// What the request asks for; throws for an unknown app or bad query.
    func stream(_ request: Request, app: String?) throws(GatewayError) -> Stream {
        if let app { _ = try apps.session(app) }
        let filter = try EventFilter(types: request.uri.queryParameters.get("types"), names: request.uri.queryParameters.get("names"))
        try checkNames(filter)
        var since = try Query.int(request, "since", in: 0...Int64.max).map { UInt64($0) }
        if since == nil, app != nil, let last = request.headers[.lastEventID], let value = UInt64(last) { since = value }
        guard since == nil || app != nil else {
            throw GatewayError(.invalidQuery, "since applies to one app's events: use /v1/apps/{id}/events")
        }
        let binaryAudio: Bool
        switch request.uri.queryParameters.get("audio") {
        case nil, "base64": binaryAudio = false
        case "binary": binaryAudio = true
        default: throw GatewayError(.invalidQuery, "audio is base64 (the default) or binary")
        }
        return Stream(app: app, filter: filter, since: since, binaryAudio: binaryAudio)
    }

    /// `names` are vehicle data names of the RPC spec (OnVehicleData's parameters), as
    /// `GET …/vehicle-data?names=` requires: a misspelt name is a 422, not a stream that stays quiet.
    func checkNames(_ filter: EventFilter) throws(GatewayError) {
        guard let names = filter.names,
            let known = apps.options.catalog.function(named: "OnVehicleData", messageType: .notification).map({
                Set($0.parameters.map(\.name))
            })
        else { return }
        let unknown = names.subtracting(known).sorted()
        guard unknown.isEmpty else {
            throw GatewayError(
                .invalidParameters,
                "names: \(unknown.joined(separator: ", ")) \(unknown.count == 1 ? "is" : "are") not vehicle data of the RPC spec",
                issues: unknown.map { "$.\($0): not a parameter of OnVehicleData" }
            )
        }
    }

    /// A browser's WebSocket must come from an allowed origin or from the gateway's own pages,
    /// by the rule every HTTP request meets (``BrowserOriginRule``; EdgeMiddleware does not see
    /// the WebSocket router's requests).
    func checkOrigin(_ request: Request) throws(GatewayError) {
        if let refusal = origins.refusal(origin: request.headers[.origin], authority: request.head.authority) {
            throw GatewayError(refusal)
        }
    }

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.get("v1/apps/:id/events") { request, context -> Response in
            try serverSentEvents(request, context: context, app: try context.parameters.decoded("id"))
        }
        router.get("v1/events") { request, context -> Response in
            try serverSentEvents(request, context: context, app: nil)
        }
        // HEAD checks what GET would (the app, the query, Accept) without opening a stream.
        router.head("v1/apps/:id/events") { request, context -> Response in
            try serverSentEventsHead(request, app: try context.parameters.decoded("id"))
        }
        router.head("v1/events") { request, _ -> Response in
            try serverSentEventsHead(request, app: nil)
        }
    }

    func addWebSocket(to router: some RouterMethods<GatewayRequestContext>) {
        router.ws(
            "v1/apps/:id/events",
            shouldUpgrade: { request, context in
                try checkOrigin(request)
                _ = try stream(request, app: try context.parameters.decoded("id"))
                return .upgrade(Self.upgradeHeaders(request))
            }
        ) { inbound, outbound, context in
            let app = try context.requestContext.parameters.decoded("id")
            try await webSocket(
                inbound, outbound, channel: context.requestContext.channel, stream: try stream(context.request, app: app),
                scope: context.requestContext.scope,
                clientKey: context.requestContext.clientKey
            )
        }
        router.ws(
            "v1/events",
            shouldUpgrade: { request, _ in
                try checkOrigin(request)
                _ = try stream(request, app: nil)
                return .upgrade(Self.upgradeHeaders(request))
            }
        ) { inbound, outbound, context in
            try await webSocket(
                inbound, outbound, channel: context.requestContext.channel, stream: try stream(context.request, app: nil),
                scope: context.requestContext.scope,
                clientKey: context.requestContext.clientKey
            )
        }
    }

    /// The 101's headers (``WebSocketSubprotocol``).
    static func upgradeHeaders(_ request: Request) -> HTTPFields {
        WebSocketSubprotocol.upgradeHeaders(offered: request.headers[values: .secWebSocketProtocol])
    }

    // MARK: Server-Sent Events

    private func serverSentEventsHead(_ request: Request, app: String?) throws -> Response {
        _ = try serverSentEventsStream(request, app: app)
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"])
    }

    /// The stream a Server-Sent Events request asks for, checked as GET and HEAD check it: it
    /// accepts `text/event-stream`, its query is valid, and it does not ask for binary audio.
    private func serverSentEventsStream(_ request: Request, app: String?) throws -> Stream {
        guard request.headers[.accept]?.contains("text/event-stream") == true else {
            throw GatewayError(.notAcceptable, "open a WebSocket or send Accept: text/event-stream")
        }
        let stream = try stream(request, app: app)
        guard !stream.binaryAudio else {
            throw GatewayError(.invalidQuery, "audio=binary needs a WebSocket: Server-Sent Events carry text only")
        }
        return stream
    }

    private func serverSentEvents(_ request: Request, context: GatewayRequestContext, app: String?) throws -> Response {
        if request.headers[.upgrade]?.lowercased() == "websocket" {
            try checkOrigin(request)
            throw GatewayError(.invalidQuery, "the WebSocket upgrade was refused: check the app id and the query")
        }
        let stream = try serverSentEventsStream(request, app: app)
        let subscription = try apps.hub.subscribe(app: stream.app, filter: stream.filter, since: stream.since)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let perApp = app != nil
        // The client leaving ends the stream at once, even when no event would have failed to write.
        context.channel.clientLeft().whenComplete { _ in subscription.cancel() }
        let keepAlive = limits.eventStreamKeepAlive
        let body = ResponseBody { writer in
            defer { subscription.cancel() }
            try await writer.write(ByteBuffer(string: ": sdl-gateway events\n\n"))
            // Graceful shutdown ends the stream, so the server need not wait for the client.
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while true {
                            try await Task.sleep(for: keepAlive)
                            subscription.queue.nudge()
                        }
                    }
                    while let delivery = await subscription.queue.receive() {
                        switch delivery {
                        case .event(let event):
                            let id = perApp ? "\(event.seq)" : "\(event.app):\(event.seq)"
                            var message = ByteBuffer(string: "id: \(id)\nevent: \(event.type)\ndata: ")
                            var json = event.encodedJSON
                            message.writeBuffer(&json)
                            message.writeStaticString("\n\n")
                            try await writer.write(message)
                        case .keepAlive:
                            try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        }
                    }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                subscription.cancel()
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    // MARK: WebSocket

    private func webSocket(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, channel: any Channel, stream: Stream, scope: TokenScope?,
        clientKey: String
    ) async throws {
        let subscription: EventHub.Subscription
        do {
            subscription = try apps.hub.subscribe(app: stream.app, filter: stream.filter, since: stream.since)
        } catch {
            // The gateway began to stop between the upgrade and here: going away (1001), as every
            // open stream is closed; otherwise no room for another client: try again later (1013).
            let code: WebSocketErrorCode = error.code == .notConnected ? .goingAway : .unknown(1013)
            try await outbound.close(code, reason: error.detail)
            return
        }
        let open = apps.hub.webSockets.opened()
        defer {
            subscription.cancel()
            open.closed()
        }
        // Graceful shutdown ends the queue (EventStreamCloser, before the server is told): once the
        // pump wrote what it held, the stream closes with 1001 (going away).
        try await withGracefulShutdownHandler {
            try await serveWebSocket(
                inbound, outbound, channel: channel, stream: stream, scope: scope, clientKey: clientKey, subscription: subscription,
                open: open)
        } onGracefulShutdown: {
            subscription.cancel()
        }
    }

    private func serveWebSocket(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, channel: any Channel, stream: Stream, scope: TokenScope?,
        clientKey: String, subscription: EventHub.Subscription, open: OpenWebSockets.Entry
    ) async throws {
        // Events are written from the connection's event loop (WebSocketEventPump); the client's
        // messages are read here, and its RPCs run in one group. No task waits for the stream's
        // end: the pump tells this reader (``WebSocketEventPump/hasEnded``).
        let pump = try await WebSocketEventPump.start(channel: channel, queue: subscription.queue, binaryAudio: stream.binaryAudio)
        defer { pump.stop() }
        try await withThrowingDiscardingTaskGroup { group in
            // The client left or closed, or the stream ended: nothing more to write.
            defer { group.cancelAll() }
            let inFlight = InFlightCounter(limit: Self.maximumRPCsInFlight)
            for try await message in inbound.messages(maxSize: limits.webSocketMessageSize) {
                if case .text(let text) = message, text.isEmpty, pump.hasEnded {
                    // The gateway is shutting down or the app was deleted, and the pump wrote what
                    // the stream held: going away. Returning leaves the close handshake to the
                    // WebSocket library, which reads on until the client's close (at most 15 s).
                    try await outbound.close(.goingAway, reason: StreamEndMarker.reason)
                    open.closed()
                    return
                }
                guard case .text(let text) = message else {
                    try await outbound.write(.text(Self.reply(id: nil, GatewayError(.invalidBody, "send JSON text messages")).serialized()))
                    continue
                }
                guard let (id, work) = handle(text, stream: stream, scope: scope, clientKey: clientKey, subscription: subscription) else {
                    continue
                }
                guard inFlight.enter() else {
                    let busy = GatewayError(.tooManyPendingRequests, "at most \(Self.maximumRPCsInFlight) RPCs at once per WebSocket")
                    try await outbound.write(.text(Self.reply(id: id, busy).serialized()))
                    continue
                }
                group.addTask {
                    defer { inFlight.leave() }
                    try await outbound.write(.text(await work().serialized()))
                }
            }
        }
    }

    /// A client message: a filter change (answered at once, nil returned) or an RPC (its id
    /// and the work that answers it). Each is authorised by ``AccessPolicy`` first: what the
    /// client's scope does not allow is answered with a 403 problem and never reaches the head unit.
    private func handle(
        _ text: String, stream: Stream, scope: TokenScope?, clientKey: String, subscription: EventHub.Subscription
    ) -> (SDLJSON?, @Sendable () async -> SDLJSON)? {
        // Every message spends from the client's request budget, as an HTTP request does.
        let parsed = try? SDLJSON.parse(text)
        if let refusal = rateLimit.refusal(clientKey: clientKey) {
            let id = parsed?["id"]
            return (id, { Self.reply(id: id, refusal) })
        }
        guard let message = parsed, message.objectValue != nil else {
            return (nil, { Self.reply(id: nil, GatewayError(.invalidBody, "messages are JSON objects")) })
        }
        if let filterMessage = message["filter"] {
            do {
                try AccessPolicy.authorize(scope, for: AccessPolicy.required(.filter), "a filter change")
            } catch {
                return (nil, { Self.reply(id: nil, error) })
            }
            // The same rules as `?types=` and `?names=`: an unknown type is refused, not ignored.
            let filter: EventFilter
            do {
                filter = try EventFilter(
                    types: filterMessage["types"]?.arrayValue.map { $0.compactMap(\.stringValue).joined(separator: ",") },
                    names: filterMessage["names"]?.arrayValue.map { $0.compactMap(\.stringValue).joined(separator: ",") }
                )
                try checkNames(filter)
            } catch {
                return (nil, { Self.reply(id: nil, error) })
            }
            subscription.setFilter(filter)
            return (nil, { ["filter": filter.json] })
        }
        let id = message["id"]
        do {
            try AccessPolicy.authorize(scope, for: AccessPolicy.required(.rpc), "an RPC over the WebSocket")
        } catch {
            return (id, { Self.reply(id: id, error) })
        }
        guard let function = message["function"]?.stringValue else {
            return (id, { Self.reply(id: id, GatewayError(.invalidBody, "an RPC message needs function (and id, params)")) })
        }
        guard let app = stream.app ?? message["app"]?.stringValue else {
            return (id, { Self.reply(id: id, GatewayError(.invalidBody, "on /v1/events an RPC message names its app")) })
        }
        let executor = RPCExecutor(apps: apps)
        let parameters = message["params"] ?? [:]
        let timeout = message["timeout"]?.intValue
        return (
            id,
            {
                do {
                    let options = SDLRequestOptions(timeout: timeout.map { .milliseconds($0) })
                    let outcome = try await executor.send(app: app, function: function, parameters: parameters, options: options)
                    return ["id": id ?? .null, "status": 200, "response": outcome.response]
                } catch {
                    return Self.reply(id: id, GatewayError.from(error))
                }
            }
        )
    }

    static func reply(id: SDLJSON?, _ error: GatewayError) -> SDLJSON {
        ["id": id ?? .null, "status": .int(Int64(error.status.code)), "problem": error.problem]
    }
}

/// Counts a WebSocket client's RPCs in flight against a limit.
final class InFlightCounter: Sendable {
    private let count: Mutex<Int>
    let limit: Int

    init(limit: Int) {
        self.limit = limit
        self.count = Mutex(0)
    }

    func enter() -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() { count.withLock { $0 -= 1 } }
}
