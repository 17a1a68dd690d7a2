import Foundation
import HTTPAPISupport
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import SDLClient
import SDLProtocol

/// Projection (README "Projection"; docs/protocol.md, streaming services): SDL's video (0x0B)
/// and PCM audio (0x0A) services of an app, which a NAVIGATION or PROJECTION app in FULL or
/// LIMITED streams to the head unit.
///
/// - `PUT /v1/apps/{id}/video` starts the video service (StartService with the body's codec,
///   protocol, width and height over the head unit's `videoStreamingCapability`) and answers
///   what the head unit accepted; `GET` tells the state and the counts; `DELETE` ends it.
/// - A WebSocket on `/v1/apps/{id}/video` sends each binary message on as video data, in order;
///   `POST /v1/apps/{id}/video/stream` (or `PUT`, as `curl -T clip.h264` sends it) sends a streamed body.
/// - The same under `/v1/apps/{id}/audio-stream` for the audio service.
///
/// One sender per app and service (``StreamSenders``): a second WebSocket or streamed POST on
/// the same service is refused with 409 `streaming-busy` while the first sends.
///
/// Neither way buffers: the next message or body chunk is read only once the previous one was
/// handed to the head-unit link, which suspends while the link cannot take more, so a slow head
/// unit slows the client instead of growing the gateway's memory.
struct StreamRoutes: Sendable {
    let apps: GatewayApps
    let executor: RPCExecutor
    let limits: GatewayLimits
    let origins: BrowserOriginRule
    /// Who sends on each app's service, shared by the HTTP and the WebSocket router.
    let senders: StreamSenders

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        for service in SDLStreamingService.allCases {
            let path = "v1/apps/:id/\(service.pathSegment)"
            router.put(RouterPath(path)) { request, context -> Response in
                let id = try context.parameters.decoded("id")
                let body = try await HTTPBody.object(request, limit: limits.bodySize)
                let status = try await start(service, app: id, body: body)
                return HTTPBody.response(StreamingResource.json(service, status: status, sender: senders.sender(app: id, service)))
            }
            router.get(RouterPath(path)) { request, context -> Response in
                if request.headers[.upgrade]?.lowercased() == "websocket" {
                    throw GatewayError(
                        .invalidQuery, "the WebSocket upgrade was refused: check the app id and that the \(service.noun) service is started"
                    )
                }
                let id = try context.parameters.decoded("id")
                let status = try apps.session(id).streamingStatus(service)
                return HTTPBody.response(StreamingResource.json(service, status: status, sender: senders.sender(app: id, service)))
            }
            router.delete(RouterPath(path)) { _, context -> Response in
                let id = try context.parameters.decoded("id")
                let session = try apps.session(id)
                guard session.streamingStatus(service) != nil else {
                    throw GatewayError(.streamingNotStarted, "app \(id) has no \(service.noun) service to end")
                }
                try await session.endStreaming(service)
                return Response(status: .noContent)
            }
            // POST, and PUT for `curl -T FILE URL` (which PUTs): the same streamed body.
            for method in [HTTPRequest.Method.post, .put] {
                router.on(RouterPath("\(path)/stream"), method: method) { request, context -> Response in
                    let id = try context.parameters.decoded("id")
                    let sent = try await stream(service, app: id, body: request.body, on: context.channel)
                    return HTTPBody.response(["bytes": .int(Int64(sent.bytes)), "frames": .int(Int64(sent.frames))])
                }
            }
        }
    }

    func addWebSocket(to router: some RouterMethods<GatewayRequestContext>) {
        for service in SDLStreamingService.allCases {
            router.ws(
                RouterPath("v1/apps/:id/\(service.pathSegment)"),
                shouldUpgrade: { request, context in
                    if let refusal = origins.refusal(origin: request.headers[.origin], authority: request.head.authority) {
                        throw GatewayError(refusal)
                    }
                    // A GET, so the middleware asked for a read credential: sending to the head unit needs control.
                    try AccessPolicy.authorize(context.scope, for: .control, "streaming \(service.noun)")
                    let id = try context.parameters.decoded("id")
                    _ = try started(service, app: id)
                    // Claimed before the 101, so that a second upgrade is refused with a 409; the
                    // handler runs inside this claim, and the connection's close ends it if no
                    // handler ever runs.
                    try senders.claim(.webSocket, app: id, service, on: context.channel)
                    return .upgrade(EventRoutes.upgradeHeaders(request))
                }
            ) { inbound, outbound, context in
                let id = try context.requestContext.parameters.decoded("id")
                try await webSocket(service, app: id, inbound, outbound, on: context.requestContext.channel)
            }
        }
    }

    // MARK: Starting

    /// Checks what the head unit would refuse (the app's HMI types and level) and starts the service.
    func start(_ service: SDLStreamingService, app id: String, body: [String: SDLJSON]) async throws -> SDLStreamingStatus {
        let session = try apps.session(id)
        let requested = try StreamingResource.format(service, body: body)
        let types = Set(session.configuration.app.appHMIType)
        guard !types.isDisjoint(with: SDLStreamingService.streamingHMITypes) else {
            throw GatewayError(
                .streamingNotAllowed,
                "app \(id) is \(types.sorted().joined(separator: ", ").nonEmpty ?? "of no HMI type"): only NAVIGATION and PROJECTION apps may stream \(service.noun) (create it with \"appHMIType\": [\"NAVIGATION\"])"
            )
        }
        guard let connection = session.connection else {
            throw GatewayError(.notConnected, "app \(id) is not registered with its head unit")
        }
        let level = connection.tracker.hmiStatus?.hmiLevel
        guard let level, SDLStreamingService.streamingLevels.contains(level) else {
            throw GatewayError(
                .streamingNotAllowed,
                "app \(id) is in \(level?.rawValue ?? "no HMI level yet"): a head unit accepts \(service.noun) streaming in FULL or LIMITED only"
            )
        }
        if session.streamingStatus(service) != nil {
            throw GatewayError(.streamingStarted, "app \(id) streams \(service.noun) already: DELETE it first to start again")
        }
        var format: SDLVideoStreamFormat?
        if service == .video {
            format = StreamingResource.videoFormat(requested, capability: try await videoCapability(app: id, connection: connection))
        }
        _ = try await session.startStreaming(service, format: format)
        guard let status = session.streamingStatus(service) else {
            throw GatewayError(.streamingNotStarted, "the head unit ended the \(service.noun) service as soon as it started")
        }
        return status
    }

    /// The head unit's `videoStreamingCapability`: what the app was told, else asked for
    /// (GetSystemCapability VIDEO_STREAMING); nil when the head unit has none.
    func videoCapability(app id: String, connection: SDLConnection) async throws -> SDLJSON? {
        let type = SDLStreamingService.videoCapabilityType
        if let known = connection.tracker.systemCapabilities[type] { return known["videoStreamingCapability"] ?? known }
        let outcome = try? await executor.send(
            app: id, function: "GetSystemCapability", parameters: ["systemCapabilityType": .string(type)])
        return outcome?.response["systemCapability"]?["videoStreamingCapability"]
    }

    /// The service's status, or 409 streaming-not-started.
    func started(_ service: SDLStreamingService, app id: String) throws(GatewayError) -> SDLStreamingStatus {
        guard let status = try apps.session(id).streamingStatus(service) else {
            throw GatewayError(
                .streamingNotStarted, "app \(id) has no \(service.noun) service: PUT /v1/apps/\(id)/\(service.pathSegment) starts it")
        }
        return status
    }

    // MARK: Streaming

    /// Sends a request body on, chunk by chunk as it arrives, as the service's one sender; the
    /// bytes and data frames sent. 409 `streaming-busy` while another sender sends.
    func stream(
        _ service: SDLStreamingService, app id: String, body: RequestBody, on channel: any Channel
    ) async throws -> (bytes: Int, frames: Int) {
        _ = try started(service, app: id)
        let session = try apps.session(id)
        return try await senders.withClaim(.streamedBody, app: id, service, on: channel) {
            var sent = (bytes: 0, frames: 0)
            for try await chunk in body where chunk.readableBytes > 0 {
                sent.frames += try await session.sendStream(service, chunk)
                sent.bytes += chunk.readableBytes
            }
            return sent
        }
    }

    /// Each binary message is sent on, as the service's one sender; a text message closes with
    /// 1003 (unsupported data), the service's end with 1000 and its reason. The claim ends before
    /// the close is sent, so that a client that saw the close can send again at once. The frames
    /// are unmasked word by word as they are decoded (``WebSocketUnmask``) and handed to the
    /// head-unit link on the connection's event loop (``WebSocketStreamForwarder``); the messages
    /// that reached Hummingbird before the forwarder took over are sent here, up to its marker.
    /// The forwarder is stopped before the claim ends, whatever way the loop ends.
    func webSocket(
        _ service: SDLStreamingService, app id: String, _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter,
        on channel: any Channel
    ) async throws {
        let session = try apps.session(id)
        await WebSocketUnmask.install(on: channel)
        let forwarder = await WebSocketStreamForwarder.install(on: channel) { bytes, whenReady in
            try session.forwardStream(service, bytes, whenReady: whenReady)
        }
        let close: (code: WebSocketErrorCode, reason: String)?
        do {
            close = try await senders.withClaim(.webSocket, app: id, service, on: channel) {
                do {
                    let close = try await send(service, inbound.messages(maxSize: limits.webSocketMessageSize), session, forwarder)
                    await forwarder?.stop()
                    return close
                } catch {
                    await forwarder?.stop()
                    throw error
                }
            }
        } catch let error as SDLClientError {
            close = (.normalClosure, GatewayError(error).detail)
        }
        if let close { try await outbound.close(close.code, reason: String(close.reason.prefix(120))) }
    }

    /// The WebSocket's messages until it ends: binary ones sent on (those before the forwarder's
    /// marker), the marker starting the forwarder, its failure marker throwing its error; the
    /// close for any other text message.
    private func send(
        _ service: SDLStreamingService, _ messages: WebSocketInboundMessageStream, _ session: SDLAppSession,
        _ forwarder: WebSocketStreamForwarder.Handle?
    ) async throws -> (code: WebSocketErrorCode, reason: String)? {
        for try await message in messages {
            switch message {
            case .binary(let bytes):
                try await session.sendStream(service, bytes)
            case .text(let text) where text == forwarder?.marker:
                forwarder?.start()
            case .text(let text) where text == forwarder?.failureMarker:
                throw forwarder?.failure ?? SDLClientError(.streamingNotStarted, "the \(service) stream could not be sent on")
            case .text:
                return (.unacceptableData, "send the encoded stream as binary messages")
            }
        }
        return nil
    }
}

extension String {
    /// nil for the empty string.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
