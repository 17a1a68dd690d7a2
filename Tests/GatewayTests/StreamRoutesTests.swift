import AsyncHTTPClient
import Foundation
import Gateway
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import SDLProtocol
import TestSupport
import Testing

/// Projection through the HTTP API against the simulator: `PUT/GET/DELETE /v1/apps/{id}/video`
/// and `/audio-stream`, the stream over a WebSocket and a streamed POST, the bytes as the
/// simulator received them (`GET /v1/simulator/apps/{appID}/video.h264`), the refusals and the
/// `videoStreaming` events.
@Suite("Projection: the video and audio services through the HTTP API", .timeLimit(.minutes(1)))
struct StreamRoutesTests {
    typealias H = GatewayHarness

    /// Bytes no two offsets of which repeat within a few MB (a 32-bit LCG's top bytes), so that
    /// a dropped, doubled or reordered chunk shows.
    static func bytes(_ count: Int, seed: UInt32 = 1) -> ByteBuffer {
        var state = seed
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count)
        for _ in 0..<count {
            state = state &* 1_664_525 &+ 1_013_904_223
            buffer.writeInteger(UInt8(truncatingIfNeeded: state >> 24))
        }
        return buffer
    }

    /// Creates app `id` (NAVIGATION unless `types` says otherwise) and returns once the event
    /// stream says it is in FULL (the simulator activates new apps).
    static func createNavigationApp(
        _ client: any TestClientProtocol, id: String = "nav", types: [String] = ["NAVIGATION"], waitForFull: Bool = true
    ) async throws {
        let body: SDLJSON = [
            "id": .string(id), "appName": .string("Nav \(id)"), "appID": .string("\(id)-app"),
            "appHMIType": .array(types.map(SDLJSON.string)),
        ]
        try await client.execute(uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: H.json(body)) { response in
            #expect(response.status == .created, "\(String(buffer: response.body))")
        }
        guard waitForFull else { return }
        _ = try await client.ws("/v1/apps/\(id)/events?since=0&types=hmiStatus") { inbound, _, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            _ = try await LiveEventTests.read(&messages) { $0["data"]?["hmiLevel"] == "FULL" }
        }
    }

    static func request(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, _ body: SDLJSON? = nil
    ) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: path, method: method, headers: H.jsonHeaders, body: body.map(H.json)) { response in
            (response.status, response.json)
        }
    }

    /// What the simulator received on the app's service: the kept bytes and its counting headers.
    static func received(
        _ client: any TestClientProtocol, app: String = "nav", file: String = "video.h264"
    ) async throws -> (
        HTTPResponse.Status, ByteBuffer, bytes: Int?, state: String?
    ) {
        try await client.execute(uri: "/v1/simulator/apps/\(app)/\(file)", method: .get) { response in
            (
                response.status, response.body, response.headers[HTTPField.Name("SDL-Stream-Bytes")!].flatMap { Int($0) },
                response.headers[HTTPField.Name("SDL-Stream-State")!]
            )
        }
    }

    @Test(
        "PUT starts the video service with the capability's defaults; a streamed POST's bytes reach the head unit intact; GET counts; DELETE ends"
    )
    func startStreamEnd() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await Self.createNavigationApp(client)
            let (stopped, before) = try await Self.request(client, .get, "/v1/apps/nav/video")
            #expect(stopped == .ok)
            #expect(before?["state"] == "stopped")

            let (status, started) = try await Self.request(client, .put, "/v1/apps/nav/video", [:])
            #expect(status == .ok, "\(started.map { "\($0)" } ?? "")")
            #expect(started?["state"] == "streaming")
            let accepted = try #require(started?["accepted"])
            #expect(accepted["codec"] == "H264")
            #expect(accepted["protocol"] == "RAW")
            #expect(accepted["width"] == 800)
            #expect(accepted["height"] == 300)
            let mtu = try #require(accepted["mtu"]?.intValue)
            #expect(mtu > 0)

            let (again, problem) = try await Self.request(client, .put, "/v1/apps/nav/video", [:])
            #expect(again == .conflict)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:streaming-started")

            let clip = Self.bytes(300_000)
            let posted = try await client.execute(uri: "/v1/apps/nav/video/stream", method: .post, body: clip) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.json?["bytes"] == 300_000)
                return response.json?["frames"]?.intValue
            }
            #expect((posted ?? 0) >= (300_000 + mtu - 1) / mtu)
            let headUnitFrames = try await client.execute(uri: "/v1/simulator/apps/nav/video.h264", method: .get) { response in
                response.headers[HTTPField.Name("SDL-Stream-Frames")!].flatMap { Int64($0) }
            }
            #expect(headUnitFrames == posted, "the POST answers the frames the head unit received")
            let (receivedStatus, body, bytes, state) = try await Self.received(client)
            #expect(receivedStatus == .ok)
            #expect(bytes == 300_000)
            #expect(state == "streaming")
            #expect(body == clip, "the head unit holds the bytes sent, in order")

            let (_, counted) = try await Self.request(client, .get, "/v1/apps/nav/video")
            #expect(counted?["bytes"] == 300_000)
            #expect(counted?["frames"]?.intValue == posted)

            let (ended, _) = try await Self.request(client, .delete, "/v1/apps/nav/video")
            #expect(ended == .noContent)
            let (_, after) = try await Self.request(client, .get, "/v1/apps/nav/video")
            #expect(after?["state"] == "stopped")
            let (_, _, _, headUnitState) = try await Self.received(client)
            #expect(headUnitState == "stopped")
            let (endAgain, notStarted) = try await Self.request(client, .delete, "/v1/apps/nav/video")
            #expect(endAgain == .conflict)
            #expect(notStarted?["type"] == "urn:sdl-gateway:problem:streaming-not-started")
        }
    }

    @Test("A WebSocket's binary messages reach the head unit in order; a text message closes it with 1003; the events tell start and end")
    func webSocketStream() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await Self.createNavigationApp(client)
            let (refused, _) = try await Self.request(client, .get, "/v1/apps/nav/video/stream")
            #expect(refused == .notFound || refused == .methodNotAllowed)
            let (status, _) = try await Self.request(client, .put, "/v1/apps/nav/video", ["width": 640, "height": 360])
            #expect(status == .ok)
            let messages = (0..<40).map { Self.bytes(7_000 + $0 * 97, seed: UInt32($0 + 1)) }
            var sent = ByteBuffer()
            for message in messages { sent.writeImmutableBuffer(message) }
            let close = try await client.ws("/v1/apps/nav/video") { _, outbound, _ in
                for message in messages { try await outbound.write(.binary(message)) }
                try await outbound.write(.text("not video"))
            }
            #expect(close?.closeCode == .unacceptableData)
            let (_, body, bytes, _) = try await Self.received(client)
            #expect(bytes == sent.readableBytes)
            #expect(body == sent)

            _ = try await Self.request(client, .delete, "/v1/apps/nav/video")
            _ = try await client.ws("/v1/apps/nav/events?since=0&types=videoStreaming") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                let events = try await LiveEventTests.read(&messages) { $0["data"]?["state"] == "ended" }
                let states = events.filter { $0["type"] == "videoStreaming" }.compactMap { $0["data"]?["state"]?.stringValue }
                #expect(states == ["started", "ended"])
            }
        }
    }

    @Test(
        "Refused: a DEFAULT app (409 streaming-not-allowed), an app in BACKGROUND (409), a codec the head unit refuses (422 with rejectedParams), no upgrade before the start"
    )
    func refusals() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await Self.createNavigationApp(client, id: "plain", types: ["DEFAULT"])
            let (notNavigation, problem) = try await Self.request(client, .put, "/v1/apps/plain/video", [:])
            #expect(notNavigation == .conflict)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:streaming-not-allowed")
            #expect(problem?["detail"]?.stringValue?.contains("NAVIGATION") == true)
            let (audioToo, _) = try await Self.request(client, .put, "/v1/apps/plain/audio-stream", [:])
            #expect(audioToo == .conflict)

            try await Self.createNavigationApp(client)
            let (badBody, invalid) = try await Self.request(client, .put, "/v1/apps/nav/video", ["codec": "MPEG2", "width": 0])
            #expect(badBody == .unprocessableContent)
            #expect(invalid?["issues"]?.arrayValue?.count == 2)
            let (nak, refusal) = try await Self.request(client, .put, "/v1/apps/nav/video", ["codec": "VP9"])
            #expect(nak == .unprocessableContent, "\(refusal.map { "\($0)" } ?? "")")
            #expect(refusal?["type"] == "urn:sdl-gateway:problem:streaming-refused")
            #expect(refusal?["rejectedParams"]?.arrayValue?.contains("videoCodec") == true)

            let (notStarted, _) = try await Self.request(client, .post, "/v1/apps/nav/video/stream")
            #expect(notStarted == .conflict)

            let (moved, _) = try await Self.request(client, .put, "/v1/simulator/apps/nav/hmi", ["hmiLevel": "BACKGROUND"])
            #expect(moved == .ok)
            _ = try await client.ws("/v1/apps/nav/events?since=0&types=hmiStatus") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await LiveEventTests.read(&messages) { $0["data"]?["hmiLevel"] == "BACKGROUND" }
            }
            let (background, levelProblem) = try await Self.request(client, .put, "/v1/apps/nav/video", [:])
            #expect(background == .conflict)
            #expect(levelProblem?["detail"]?.stringValue?.contains("BACKGROUND") == true)
        }
    }

    @Test("The head unit ends the service when the app leaves FULL/LIMITED: a videoStreaming ended event with its reason, GET says stopped")
    func endedByTheHeadUnit() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await Self.createNavigationApp(client)
            let (status, _) = try await Self.request(client, .put, "/v1/apps/nav/video", [:])
            #expect(status == .ok)
            let (moved, _) = try await Self.request(client, .put, "/v1/simulator/apps/nav/hmi", ["hmiLevel": "BACKGROUND"])
            #expect(moved == .ok)
            // Core ends the service with the first data frame after its stop-streaming timeout
            // (1 s, 10 ms at the harness's time scale; docs/protocol.md §k): the app streams on
            // until its sends are refused.
            var refused = false
            for _ in 0..<2_000 where !refused {
                try await client.execute(uri: "/v1/apps/nav/video/stream", method: .post, body: Self.bytes(512)) { response in
                    refused = response.status == .conflict
                }
            }
            #expect(refused, "the head unit never ended the video service")
            _ = try await client.ws("/v1/apps/nav/events?since=0&types=videoStreaming") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                let events = try await LiveEventTests.read(&messages) { $0["type"] == "videoStreaming" && $0["data"]?["state"] == "ended" }
                let ended = try #require(events.last)
                #expect(ended["data"]?["reason"]?.stringValue?.isEmpty == false)
            }
            let (_, after) = try await Self.request(client, .get, "/v1/apps/nav/video")
            #expect(after?["state"] == "stopped")
        }
    }

    @Test("The audio service: PUT takes no members, PCM through a streamed POST arrives intact")
    func audioStream() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await Self.createNavigationApp(client)
            let (unknown, _) = try await Self.request(client, .put, "/v1/apps/nav/audio-stream", ["codec": "H264"])
            #expect(unknown == .unprocessableContent)
            let (status, started) = try await Self.request(client, .put, "/v1/apps/nav/audio-stream")
            #expect(status == .ok)
            #expect(started?["service"] == "audio")
            let pcm = Self.bytes(64_000, seed: 7)
            try await client.execute(uri: "/v1/apps/nav/audio-stream/stream", method: .post, body: pcm) { response in
                #expect(response.status == .ok)
            }
            let (_, body, bytes, _) = try await Self.received(client, file: "audio.pcm")
            #expect(bytes == 64_000)
            #expect(body == pcm)
        }
    }

    @Test("A touch on the simulator's screen arrives as a touchEvent")
    func touches() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await Self.createNavigationApp(client)
            let (status, _) = try await Self.request(
                client, .post, "/v1/simulator/apps/nav/touch", ["type": "BEGIN", "x": 120, "y": 48])
            #expect(status == .ok)
            _ = try await client.ws("/v1/apps/nav/events?since=0&types=touchEvent") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                let events = try await LiveEventTests.read(&messages) { $0["type"] == "touchEvent" }
                let touch = try #require(events.last?["data"])
                #expect(touch["type"] == "BEGIN")
                #expect(touch["event"]?.arrayValue?.first?["c"]?.arrayValue?.first == ["x": 120, "y": 48])
            }
        }
    }
}

/// The stream WebSockets send to the head unit: their upgrade needs a control credential, as the
/// PUT that starts the service does, on every way a credential comes.
@Suite("Projection: the stream WebSockets' upgrade without a control token", .timeLimit(.minutes(1)))
struct StreamWebSocketAuthTests {
    typealias H = GatewayHarness

    @Test("Upgrade on /v1/apps/{id}/video and /audio-stream: no token or a wrong one → 401, a read token → 403, a control token → 101")
    func upgrades() async throws {
        try await H.withGateway(AuthTests.tokens(), mode: .live) { client, _, _ in
            let body: SDLJSON = ["id": "nav", "appName": "Nav", "appID": "nav-app", "appHMIType": ["NAVIGATION"]]
            var headers = AuthTests.bearerController
            headers[.contentType] = "application/json"
            try await client.execute(uri: "/v1/apps", method: .post, headers: headers, body: H.json(body)) { response in
                #expect(response.status == .created)
            }
            _ = try await client.ws(
                "/v1/apps/nav/events?since=0&types=hmiStatus", configuration: .init(additionalHeaders: AuthTests.bearerController)
            ) {
                inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await LiveEventTests.read(&messages) { $0["data"]?["hmiLevel"] == "FULL" }
            }
            for service in ["video", "audio-stream"] {
                try await client.execute(uri: "/v1/apps/nav/\(service)", method: .put, headers: AuthTests.bearerController) { response in
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                }
            }
            let port = try #require(client.port)
            let cases: [(String, [String], String)] = [
                ("no credential", [], "HTTP/1.1 401"),
                ("a wrong token", ["Authorization: Bearer not-a-token-at-all"], "HTTP/1.1 401"),
                ("a wrong token as subprotocol", ["Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.not-a-token-at-all"], "HTTP/1.1 401"),
                ("a read token", ["Authorization: Bearer \(AuthTests.reader)"], "HTTP/1.1 403"),
                ("a read token as subprotocol", ["Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.\(AuthTests.reader)"], "HTTP/1.1 403"),
            ]
            for service in ["video", "audio-stream"] {
                for (name, header, expected) in cases {
                    let text = try await EventStreamAuthTests.refusedUpgrade(port: port, "/v1/apps/nav/\(service)", header)
                    #expect(text.hasPrefix(expected), "\(service) with \(name): \(text)")
                    #expect(!text.contains("not-a-token-at-all") && !text.contains(AuthTests.reader), "a token was echoed")
                }
                let head = try await RawConnection.exchange(
                    port: port,
                    RawConnection.get(
                        "/v1/apps/nav/\(service)",
                        RawConnection.webSocketUpgrade + ["Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.\(AuthTests.controller)"]),
                    until: "\r\n\r\n")
                #expect(head.hasPrefix("HTTP/1.1 101"), "\(service) with a control token: \(head)")
                #expect(head.contains("Sec-WebSocket-Protocol: sdl-gateway.v1"), "\(head)")
            }
        }
    }
}
