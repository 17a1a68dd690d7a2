import Foundation
import Gateway
import HummingbirdTesting
import NIOCore
import SDLProtocol
import TestSupport
import Testing

/// Issue "Security and availability": an event stream's client is released as soon as its
/// connection closes, quiet or not, so closed streams never lock others out.
///
/// The limit guards against a hang: 1,000 connect-and-close cycles take 63-66 s beside the rest of
/// `swift test` on two cores (debug build), too close to one minute.
@Suite("Event clients are released when their connection closes", .timeLimit(.minutes(3)))
struct EventClientReleaseTests {
    typealias H = GatewayHarness

    /// Waits (bounded: one second) until the hub counts no client; the count it saw last.
    static func clientsOneSecondLater(_ hub: EventHub) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(1)
        while hub.clientCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        return hub.clientCount
    }

    @Test("500 SSE and 500 WebSocket connect-and-close cycles on a quiet app: every one admitted, none counted a second later")
    func connectAndClose() async throws {
        // The default limit of 100 clients: a leak would refuse the 101st stream with 503.
        let configuration = GatewayConfiguration(limits: GatewayLimits(requestsPerSecond: 0))
        try await H.withGateway(configuration, mode: .live) { client, _, apps in
            try await H.createApp(client)
            let port = try #require(client.port)
            let sse = RawConnection.get("/v1/apps/demo/events?types=buttonPress", ["Accept: text/event-stream"])
            for cycle in 0..<500 {
                let text = try await RawConnection.connect(port: port).exchange(sse) { text in
                    text.contains(": sdl-gateway events") || (!text.hasPrefix("HTTP/1.1 200") && text.contains("\r\n\r\n"))
                }
                try #require(text.hasPrefix("HTTP/1.1 200"), "SSE cycle \(cycle): \(text.prefix(200))")
            }
            #expect(try await Self.clientsOneSecondLater(apps.hub) == 0, "SSE clients left counted")
            let webSocket = RawConnection.get("/v1/apps/demo/events?types=buttonPress", RawConnection.webSocketUpgrade)
            for cycle in 0..<500 {
                let text = try await RawConnection.exchange(port: port, webSocket, until: "\r\n\r\n")
                try #require(text.hasPrefix("HTTP/1.1 101"), "WebSocket cycle \(cycle): \(text.prefix(200))")
            }
            #expect(try await Self.clientsOneSecondLater(apps.hub) == 0, "WebSocket clients left counted")
        }
    }

    @Test("A quiet SSE stream gets a keep-alive comment every limits.eventStreamKeepAlive")
    func keepAlive() async throws {
        let configuration = GatewayConfiguration(limits: GatewayLimits(eventStreamKeepAlive: .milliseconds(50)))
        try await H.withGateway(configuration, mode: .live) { client, _, _ in
            try await H.createApp(client)
            let port = try #require(client.port)
            let request = RawConnection.get("/v1/apps/demo/events?types=buttonPress", ["Accept: text/event-stream"])
            // Each write is one HTTP chunk: count the comments.
            let text = try await RawConnection.connect(port: port).exchange(request) {
                $0.components(separatedBy: ": keep-alive\n\n").count > 2
            }
            #expect(text.contains(": sdl-gateway events\n\n"))
            #expect(!text.contains("event: "), "the stream was quiet")
        }
    }

    @Test("The queue hands out a keep-alive nudge only while no event is waiting, and never after finishing")
    func queueNudge() async {
        let queue = EventClientQueue(capacity: 4)
        queue.nudge()
        guard case .keepAlive = await queue.receive() else { Issue.record("a pending nudge"); return }
        queue.push(GatewayEvent(seq: 1, time: .now, app: "a", type: "vehicleData", data: [:]))
        queue.nudge()
        guard case .event(let event) = await queue.receive(), event.seq == 1 else { Issue.record("the event comes first"); return }
        guard case .keepAlive = await queue.receive() else { Issue.record("then the nudge"); return }
        queue.finish()
        queue.nudge()
        #expect(await queue.receive() == nil)
    }
}
