@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import SDLProtocol
import Testing

/// How a request still waiting for the head unit ends when its app goes away: `DELETE
/// /v1/apps/{id}` answers it with the documented `cancelled` problem, over HTTP and over the
/// WebSocket alike, while a link that really breaks answers `link-lost`.
///
/// The simulator runs at time scale 1 here, so an Alert with a 10 s `duration` stays open on its
/// HMI (Core's AlertRequest waits for the HMI's UI.Alert answer the same way) while the test
/// deletes the app.
@Suite("Pending requests: cancelled by DELETE, link-lost on a lost link", .timeLimit(.minutes(1)))
struct PendingRequestEndTests {
    typealias H = GatewayHarness

    static let longAlert: SDLJSON = ["alertText1": "pending", "duration": 10000]

    /// Waits for the traffic event of `function` going out to the head unit.
    static func waitUntilSent(_ function: String, on subscription: EventHub.Subscription) async -> Bool {
        while let event = await subscription.queue.next() {
            if event.data["direction"] == "sent", event.data["function"] == .string(function) { return true }
        }
        return false
    }

    @Test("DELETE while an Alert is pending: the Alert's HTTP answer is 503 cancelled, not link-lost")
    func deleteCancelsPendingHTTPRequest() async throws {
        try await H.withGateway(timeScale: 1) { client, _, apps in
            try await H.createApp(client)
            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["rpc"]))
            defer { subscription.cancel() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await client.execute(
                        uri: "/v1/apps/demo/rpc/Alert", method: .post, headers: H.jsonHeaders, body: H.json(Self.longAlert)
                    ) { response in
                        #expect(response.status == .serviceUnavailable, "\(String(buffer: response.body))")
                        #expect(response.problemType == "cancelled", "\(String(buffer: response.body))")
                        #expect(response.json?["detail"]?.stringValue?.contains("Alert") == true)
                    }
                }
                #expect(await Self.waitUntilSent("Alert", on: subscription))
                try await client.execute(uri: "/v1/apps/demo", method: .delete) { response in #expect(response.status == .noContent) }
                try await group.waitForAll()
                // The delete ended the Alert, not its 10 s: the head unit never answered it (the
                // app's traffic up to its removal, which ends the stream). No clock: a loaded
                // machine may take seconds for the delete.
                var answers: [SDLJSON] = []
                while let event = await subscription.queue.next() {
                    if event.data["direction"] == "received", event.data["function"] == "Alert" { answers.append(event.data) }
                }
                #expect(answers.isEmpty, "the head unit answered the Alert: \(answers)")
            }
        }
    }

    @Test("DELETE while an Alert sent over the app's WebSocket is pending: its reply is 503 cancelled")
    func deleteCancelsPendingWebSocketRequest() async throws {
        try await H.withGateway(mode: .live, timeScale: 1) { client, _, _ in
            try await H.createApp(client)
            _ = try await client.ws("/v1/apps/demo/events?types=rpc") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"id":"a1","function":"Alert","params":{"alertText1":"pending","duration":10000}}"#))
                let sent = try await LiveEventTests.read(&messages) {
                    $0["data"]?["direction"] == "sent" && $0["data"]?["function"] == "Alert"
                }
                #expect(sent.last?["data"]?["function"] == "Alert")
                try await client.execute(uri: "/v1/apps/demo", method: .delete) { response in #expect(response.status == .noContent) }
                let reply = try await LiveEventTests.read(&messages) { $0["id"] == "a1" }.last
                #expect(reply?["id"] == "a1", "no reply before the stream ended")
                #expect(reply?["status"] == 503)
                #expect(reply?["problem"]?["type"] == "urn:sdl-gateway:problem:cancelled", "\(reply ?? .null)")
            }
        }
    }

    @Test("The head unit dropping the link while an Alert is pending still answers 503 link-lost")
    func lostLinkAnswersLinkLost() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client)
            try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Alert", dropConnection: true)), []) }
            try await client.execute(uri: "/v1/apps/demo/rpc/Alert", method: .post, headers: H.jsonHeaders, body: H.json(Self.longAlert)) {
                response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.problemType == "link-lost", "\(String(buffer: response.body))")
            }
            // The app is still there (reconnecting), unlike after a delete.
            try await client.execute(uri: "/v1/apps/demo", method: .get) { response in #expect(response.status == .ok) }
        }
    }
}
