import Gateway
import HummingbirdTesting
import TestSupport
import Testing

/// Issue "Reliability and security suite": with tokens configured, both event streams refuse a
/// WebSocket upgrade or an SSE request that has no credential or a wrong one, and open for a read
/// token. AuthTests covers the rest (every operation without an upgrade, the `bearer.`
/// subprotocol, tickets, the failed-authentication budget).
@Suite("Auth: the event streams' WebSocket upgrades and SSE without a valid token", .timeLimit(.minutes(1)))
struct EventStreamAuthTests {
    typealias H = GatewayHarness

    static let credentials: [(name: String, header: [String], admitted: Bool)] = [
        ("no credential", [], false),
        ("a wrong token", ["Authorization: Bearer not-a-token-at-all"], false),
        ("a read token", ["Authorization: Bearer \(AuthTests.reader)"], true),
    ]

    @Test("Upgrade: websocket on /v1/apps/{id}/events and /v1/events: no token or a wrong one → refused, no 101 (Hummingbird's bare 400); a read token → 101")
    func webSocketUpgrades() async throws {
        try await H.withGateway(AuthTests.tokens(), mode: .live) { client, _, _ in
            try await H.createApp(client, headers: AuthTests.bearerController)
            let port = try #require(client.port)
            for path in ["/v1/apps/demo/events", "/v1/events"] {
                for (name, header, admitted) in Self.credentials {
                    let head = try await RawConnection.exchange(port: port, RawConnection.get(path, RawConnection.webSocketUpgrade + header), until: "\r\n\r\n")
                    if !admitted {
                        // hummingbird-websocket answers every refused upgrade with an empty 400 and
                        // closes: the 401 problem of the HTTP router cannot be sent there.
                        #expect(head.hasPrefix("HTTP/1.1 400"), "\(path) with \(name): \(head)")
                    } else {
                        #expect(head.hasPrefix("HTTP/1.1 101"), "\(path) with \(name): \(head)")
                    }
                    #expect(!head.contains("not-a-token-at-all") && !head.contains(AuthTests.reader), "a token was echoed")
                }
            }
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
