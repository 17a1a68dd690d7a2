import Gateway
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import SDLProtocol
import TestSupport
import Testing

/// One sender per app and service: a second WebSocket or streamed POST on the same app's video is
/// refused with 409 `streaming-busy` naming the sender, before its upgrade; the service is free
/// again once the sender ends, whichever way it ends.
@Suite("Projection: one sender per app and service", .timeLimit(.minutes(1)))
struct StreamSenderTests {
    typealias H = GatewayHarness
    typealias S = StreamRoutesTests

    /// The head of a streamed POST of `length` bytes on the app's video.
    static func postHead(length: Int, app: String = "nav") -> String {
        "POST /v1/apps/\(app)/video/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n\r\n"
    }

    /// GETs the video's state until its `sender` is `expected` (nil: nobody): the server sees a
    /// client leave a moment after the client left.
    static func waitForSender(_ client: any TestClientProtocol, _ expected: String?) async throws {
        let wanted = expected.map(SDLJSON.string) ?? .null
        try await waitForVideo(client, "sender \(expected ?? "null")") { $0["sender"] == wanted }
    }

    /// GETs the video's state until `condition` holds of it (at most 2,000 times).
    static func waitForVideo(_ client: any TestClientProtocol, _ what: String, _ condition: (SDLJSON) -> Bool) async throws {
        for _ in 0..<2_000 {
            let (_, state) = try await S.request(client, .get, "/v1/apps/nav/video")
            if let state, condition(state) { return }
            await Task.yield()
        }
        Issue.record("the video's state never had \(what)")
    }

    /// A second upgrade on the app's video, answered without a 101: the raw answer.
    static func secondUpgrade(port: Int) async throws -> String {
        try await EventStreamAuthTests.refusedUpgrade(port: port, "/v1/apps/nav/video", [])
    }

    /// A streamed POST of `body` through the test client: its status and JSON.
    static func post(_ client: any TestClientProtocol, _ body: ByteBuffer) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: "/v1/apps/nav/video/stream", method: .post, body: body) { ($0.status, $0.json) }
    }

    static func expectBusy(_ answer: (HTTPResponse.Status, SDLJSON?), holder: String, _ comment: Comment) {
        #expect(answer.0 == .conflict, comment)
        #expect(answer.1?["type"] == "urn:sdl-gateway:problem:streaming-busy", comment)
        #expect(answer.1?["detail"]?.stringValue?.contains(holder) == true, comment)
    }

    static func expectBusyUpgrade(_ text: String, holder: String, _ comment: Comment) {
        #expect(text.hasPrefix("HTTP/1.1 409"), "\(comment): \(text)")
        #expect(text.contains("streaming-busy") && text.contains(holder), "\(comment): \(text)")
        #expect(!text.contains("101 Switching"), "\(comment): \(text)")
    }

    @Test(
        "A WebSocket sends: a second WebSocket (before its 101) and a streamed POST are 409 streaming-busy naming it; DELETE still ends the service, and the sender's next message closes it with 1000; the service is free at once after"
    )
    func webSocketHolds() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await S.createNavigationApp(client)
            #expect(try await S.request(client, .put, "/v1/apps/nav/video", [:]).0 == .ok)
            let port = try #require(client.port)
            let first = S.bytes(5_000, seed: 3)
            let close = try await client.ws("/v1/apps/nav/video") { inbound, outbound, _ in
                try await outbound.write(.binary(first))
                try await Self.waitForVideo(client, "5000 bytes") { $0["bytes"] == 5_000 }
                Self.expectBusyUpgrade(try await Self.secondUpgrade(port: port), holder: "a WebSocket", "WebSocket + WebSocket")
                Self.expectBusy(try await Self.post(client, S.bytes(100)), holder: "a WebSocket", "WebSocket + POST")
                #expect(try await S.request(client, .get, "/v1/apps/nav/video").1?["sender"] == "webSocket")
                #expect(try await S.request(client, .delete, "/v1/apps/nav/video").0 == .noContent, "DELETE with a sender connected")
                try await outbound.write(.binary(S.bytes(100)))
                for try await _ in inbound {}
            }
            #expect(close?.closeCode == .normalClosure)
            #expect(close?.reason?.isEmpty == false)
            let (_, received, _, _) = try await S.received(client)
            #expect(received == first, "only the first sender's bytes reached the head unit")
            // The claim ended before the close was sent: a new sender is taken at once.
            #expect(try await S.request(client, .put, "/v1/apps/nav/video", [:]).0 == .ok)
            let (status, sent) = try await Self.post(client, S.bytes(100))
            #expect(status == .ok)
            #expect(sent?["bytes"] == 100)
        }
    }

    @Test(
        "A streamed POST sends: a second POST and a WebSocket upgrade are 409 streaming-busy naming it; once it is answered, the next sender is taken"
    )
    func streamedPostHolds() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await S.createNavigationApp(client)
            #expect(try await S.request(client, .put, "/v1/apps/nav/video", [:]).0 == .ok)
            let port = try #require(client.port)
            let body = S.bytes(20_000, seed: 5)
            let answer = try await RawConnection.connect(port: port).channel.executeThenClose { inbound, outbound in
                var head = ByteBuffer(string: Self.postHead(length: body.readableBytes))
                head.writeImmutableBuffer(body.getSlice(at: 0, length: 10_000)!)
                try await outbound.write(head)
                try await Self.waitForSender(client, "streamedBody")
                Self.expectBusy(try await Self.post(client, S.bytes(100)), holder: "a streamed POST", "POST + POST")
                Self.expectBusyUpgrade(try await Self.secondUpgrade(port: port), holder: "a streamed POST", "POST + WebSocket")
                try await outbound.write(body.getSlice(at: 10_000, length: 10_000)!)
                var text = ""
                for try await chunk in inbound {
                    text += String(buffer: chunk)
                    if text.contains("}") { break }
                }
                return text
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            #expect(answer.contains("20000"), "\(answer)")
            // Answered after the claim ended: the next POST is not busy.
            let (status, _) = try await Self.post(client, S.bytes(100, seed: 9))
            #expect(status == .ok)
            var expected = body
            expected.writeImmutableBuffer(S.bytes(100, seed: 9))
            let (_, received, _, _) = try await S.received(client)
            #expect(received == expected)
            #expect(try await S.request(client, .get, "/v1/apps/nav/video").1?["sender"] == .null)
        }
    }

    @Test(
        "A sender that ends or vanishes frees the service: a WebSocket the client closes, one whose client leaves without a close, a POST whose client leaves mid-body"
    )
    func releasedWhenTheSenderGoes() async throws {
        try await H.withGateway(mode: .live) { client, _, _ in
            try await S.createNavigationApp(client)
            #expect(try await S.request(client, .put, "/v1/apps/nav/video", [:]).0 == .ok)
            let port = try #require(client.port)

            // The client closes its WebSocket.
            _ = try await client.ws("/v1/apps/nav/video") { _, outbound, _ in
                try await outbound.write(.binary(S.bytes(1_000)))
            }
            try await Self.waitForSender(client, nil)
            #expect(try await Self.post(client, S.bytes(100)).0 == .ok, "after a WebSocket the client closed")

            // A WebSocket whose client leaves after the 101, without a close frame.
            let upgraded = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/apps/nav/video", RawConnection.webSocketUpgrade), until: "\r\n\r\n")
            #expect(upgraded.hasPrefix("HTTP/1.1 101"), "\(upgraded)")
            try await Self.waitForSender(client, nil)
            #expect(try await Self.post(client, S.bytes(100)).0 == .ok, "after a WebSocket whose client vanished")

            // A POST whose client leaves in the middle of its body.
            try await RawConnection.connect(port: port).channel.executeThenClose { _, outbound in
                var head = ByteBuffer(string: Self.postHead(length: 10_000))
                head.writeImmutableBuffer(S.bytes(1_000))
                try await outbound.write(head)
                try await Self.waitForSender(client, "streamedBody")
            }
            try await Self.waitForSender(client, nil)
            #expect(try await Self.post(client, S.bytes(100)).0 == .ok, "after a POST whose client vanished")
        }
    }
}
