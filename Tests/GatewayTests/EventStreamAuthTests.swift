import Gateway
import HummingbirdTesting
import TestSupport
import Testing

/// Issue "Reliability and security suite": with tokens configured, both event streams refuse a
/// WebSocket upgrade (401 with the problem, as over HTTP) or an SSE request that has no credential
/// or a wrong one, and open for a read token. AuthTests covers the rest (every operation without an upgrade, the `bearer.`
/// subprotocol, tickets, the failed-authentication budget).
@Suite("Auth: the event streams' WebSocket upgrades and SSE without a valid token", .timeLimit(.minutes(1)))
struct EventStreamAuthTests {
    typealias H = GatewayHarness

    static let credentials: [(name: String, header: [String], admitted: Bool)] = [
        ("no credential", [], false),
        ("a wrong token", ["Authorization: Bearer not-a-token-at-all"], false),
        ("a read token", ["Authorization: Bearer \(AuthTests.reader)"], true),
    ]

    /// What a refused upgrade is answered, as read until the server closes.
    static func refusedUpgrade(port: Int, _ path: String, _ header: [String]) async throws -> String {
        try #require(
            try await RawConnection.readUntilClosed(
                port: port, sending: RawConnection.get(path, RawConnection.webSocketUpgrade + header), limit: .seconds(20)))
    }

    @Test(
        "Upgrade: websocket on /v1/apps/{id}/events and /v1/events: no token or a wrong one (header, subprotocol, Basic) → 401 with the problem, before any 101; a read token → 101"
    )
    func webSocketUpgrades() async throws {
        try await H.withGateway(AuthTests.tokens(), mode: .live) { client, _, _ in
            try await H.createApp(client, headers: AuthTests.bearerController)
            let port = try #require(client.port)
            let refused =
                Self.credentials.filter { !$0.admitted } + [
                    ("a wrong token as subprotocol", ["Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.not-a-token-at-all"], false),
                    ("Basic credentials", ["Authorization: Basic bm90OmF0b2tlbg=="], false),
                ]
            for path in ["/v1/apps/demo/events", "/v1/events"] {
                for (name, header, _) in refused {
                    // Hummingbird answered every refused upgrade with an empty 400.
                    let text = try await Self.refusedUpgrade(port: port, path, header)
                    #expect(text.hasPrefix("HTTP/1.1 401"), "\(path) with \(name): \(text)")
                    #expect(text.lowercased().contains("content-type: application/problem+json"), "\(text)")
                    #expect(text.lowercased().contains("connection: close"), "\(text)")
                    #expect(text.lowercased().contains("x-content-type-options: nosniff"), "\(text)")
                    #expect(text.hasSuffix("}") && text.contains("\"type\":\"urn:sdl-gateway:problem:unauthorized\""), "\(text)")
                    #expect(!text.contains("not-a-token-at-all"), "a token was echoed")
                }
                let head = try await RawConnection.exchange(
                    port: port, RawConnection.get(path, RawConnection.webSocketUpgrade + ["Authorization: Bearer \(AuthTests.reader)"]),
                    until: "\r\n\r\n")
                #expect(head.hasPrefix("HTTP/1.1 101"), "\(path) with a read token: \(head)")
                #expect(!head.contains(AuthTests.reader), "a token was echoed")
            }
            // The other refusals of the WebSocket router keep their problems too.
            let unknown = try await Self.refusedUpgrade(port: port, "/v1/apps/nope/events", ["Authorization: Bearer \(AuthTests.reader)"])
            #expect(unknown.hasPrefix("HTTP/1.1 404") && unknown.contains("urn:sdl-gateway:problem:app-not-found"), "\(unknown)")
            let badQuery = try await Self.refusedUpgrade(port: port, "/v1/events?audio=mp3", ["Authorization: Bearer \(AuthTests.reader)"])
            #expect(badQuery.hasPrefix("HTTP/1.1 400") && badQuery.contains("urn:sdl-gateway:problem:invalid-query"), "\(badQuery)")
            let origin = try await Self.refusedUpgrade(
                port: port, "/v1/events", ["Authorization: Bearer \(AuthTests.reader)", "Origin: https://elsewhere.example"])
            #expect(origin.hasPrefix("HTTP/1.1 403") && origin.contains("urn:sdl-gateway:problem:origin-not-allowed"), "\(origin)")
        }
    }

    @Test("Accept: text/event-stream on both streams: no token or a wrong one → 401 unauthorized; a read token → 200 and the stream")
    func serverSentEvents() async throws {
        try await H.withGateway(AuthTests.tokens(), mode: .live) { client, _, _ in
            try await H.createApp(client, headers: AuthTests.bearerController)
            let port = try #require(client.port)
            for path in ["/v1/apps/demo/events", "/v1/events"] {
                for (name, header, admitted) in Self.credentials {
                    let request = RawConnection.get(path, ["Accept: text/event-stream"] + header)
                    let text = try await RawConnection.connect(port: port).exchange(request) { text in
                        text.contains(": sdl-gateway events") || (text.contains("\r\n\r\n") && text.hasSuffix("}"))
                    }
                    if admitted {
                        #expect(text.hasPrefix("HTTP/1.1 200") && text.contains(": sdl-gateway events"), "\(path) with \(name): \(text)")
                    } else {
                        #expect(text.hasPrefix("HTTP/1.1 401"), "\(path) with \(name): \(text)")
                        #expect(text.contains("\"type\":\"urn:sdl-gateway:problem:unauthorized\""), "\(text)")
                    }
                }
            }
        }
    }
}
