import AsyncHTTPClient
import Gateway
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import NIOPosix
import SDLProtocol
import TestSupport
import Testing

/// `limits.idleTimeout`: connections that hold a server slot without using it are closed; a
/// response in progress is not.
@Suite("HTTP connections: idle timeout", .timeLimit(.minutes(1)))
struct IdleTimeoutTests {
    typealias H = GatewayHarness

    /// A live gateway whose idle timeout is 200 ms, its client, port and apps.
    static func withShortIdleTimeout(_ body: @Sendable (any TestClientProtocol, Int, GatewayApps) async throws -> Void) async throws {
        let configuration = GatewayConfiguration(limits: GatewayLimits(idleTimeout: .milliseconds(200)))
        try await H.withGateway(configuration, mode: .live) { client, _, apps in
            try await body(client, try #require(client.port), apps)
        }
    }

    @Test("An idle keep-alive connection is closed after the idle timeout")
    func idleConnectionIsClosed() async throws {
        try await Self.withShortIdleTimeout { _, port, _ in
            // One request answered, then nothing: the server closes the kept-alive connection.
            let answered = try await RawConnection.readUntilClosed(
                port: port, sending: "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", limit: .seconds(10)
            )
            let text = try #require(answered, "the server kept an idle connection open for 10 s")
            #expect(text.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("A request whose body stalls is closed after the idle timeout")
    func stalledRequestIsClosed() async throws {
        try await Self.withShortIdleTimeout { _, port, _ in
            // A body announced but never sent: closed, not held.
            let stalled = try await RawConnection.readUntilClosed(
                port: port,
                sending: "POST /v1/apps HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
                limit: .seconds(10)
            )
            #expect(stalled != nil, "the server held a stalled request for 10 s")
        }
    }

    @Test("An SSE stream quieter than the idle timeout stays open")
    func quietStreamsStayOpen() async throws {
        try await Self.withShortIdleTimeout { client, port, apps in
            try await H.createApp(client)
            let before = apps.hub.lastSeq(app: "demo")
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/apps/demo/events?types=vehicleData&since=\(before)")
            request.headers.add(name: "Accept", value: "text/event-stream")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            #expect(response.status == .ok)
            // Not synchronisation: the passing of three idle timeouts without a byte is what is tested.
            try await Task.sleep(for: .milliseconds(600))
            apps.hub.publish(app: "demo", type: "vehicleData", data: ["speed": 42])
            var text = ""
            for try await chunk in response.body {
                text += String(buffer: chunk)
                if text.contains("\"speed\":42") { break }
            }
            #expect(text.contains("\"speed\":42"))
        }
    }
}
