import Gateway
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOCore
import SDLProtocol
import SDLTransport
import SimulatorControl
import TestSupport
import Testing

/// Issue "What a new user tripped over", defect 8: the same question gets the same answer
/// whichever way it is asked.
@Suite("Consistent answers", .timeLimit(.minutes(1)))
struct ConsistentAnswerTests {
    @Test("Simulator routes on a gateway without --simulate: 404 saying the simulator is off, not 405 'allowed: POST'")
    func simulatorOff() async throws {
        let configuration = GatewayConfiguration(port: 0, sessions: .init(defaultCore: SDLTransportAddress.tcp(host: "127.0.0.1", port: 1)))
        // What `serve` without `--simulate` hands the gateway.
        let off = GatewayRouteGroup.unavailable(
            path: "v1/simulator", operations: SimulatorControlRoutes.operations, detail: "the simulator is off")
        let (application, _) = try await buildApplication(
            configuration, companion: GatewayCompanion(routeGroups: [off]), logger: Logger.test("test"))
        try await application.test(.router) { client in
            for (method, path) in [(HTTPRequest.Method.post, "/v1/simulator/buttons/OK/press"), (.get, "/v1/simulator/apps")] {
                try await client.execute(
                    uri: path, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}")
                ) { response in
                    #expect(response.status == .notFound, "\(method) \(path)")
                    #expect(response.json?["detail"]?.stringValue?.contains("simulator is off") == true)
                }
            }
        }
    }

    @Test("A WebSocket filter with an unknown type is refused like ?types= (400 invalid-query), and the old filter stays")
    func webSocketFilterIsChecked() async throws {
        try await GatewayHarness.withGateway(mode: .live) { client, _, _ in
            try await GatewayHarness.createApp(client)
            try await client.execute(uri: "/v1/apps/demo/events?types=bogus", method: .get, headers: [.accept: "text/event-stream"]) {
                response in
                #expect(response.status == .badRequest)
            }
            _ = try await client.ws("/v1/apps/demo/events?types=connection") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"filter":{"types":["bogus"]}}"#))
                let reply = try await LiveEventTests.read(&messages) { $0["status"] != nil || $0["filter"] != nil }.last
                #expect(reply?["status"] == 400)
                #expect(reply?["problem"]?["type"] == "urn:sdl-gateway:problem:invalid-query")
            }
        }
    }
}

extension ConsistentAnswerTests {
    @Test("An unknown button on the subscription route lists its issues like any validation refusal")
    func unknownButtonHasIssues() async throws {
        try await GatewayHarness.withGateway { client, _, _ in
            try await GatewayHarness.createApp(client)
            try await client.execute(uri: "/v1/apps/demo/subscriptions/buttons/NOPE", method: .put) { response in
                #expect(response.status == .unprocessableContent)
                #expect(
                    response.json?["issues"]?.arrayValue?.first?.stringValue?.hasPrefix("$.buttonName") == true,
                    "\(String(buffer: response.body))")
            }
        }
    }
}

extension ConsistentAnswerTests {
    @Test("An empty upload says the file is empty (422 empty-file), not that the parameters do not match the spec")
    func emptyUpload() async throws {
        try await GatewayHarness.withGateway { client, _, _ in
            try await GatewayHarness.createApp(client)
            try await client.execute(uri: "/v1/apps/demo/files/empty.png", method: .put, headers: [.contentLength: "0"], body: ByteBuffer())
            { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.problemType == "empty-file")
                #expect(response.json?["title"] == "The file is empty")
            }
        }
    }
}

extension ConsistentAnswerTests {
    @Test("events?names= takes vehicle data names of the spec, like vehicle-data?names= (422 naming the unknown one)")
    func eventNamesAreChecked() async throws {
        try await GatewayHarness.withGateway { client, _, _ in
            try await GatewayHarness.createApp(client)
            for path in ["/v1/apps/demo/events?names=bogus", "/v1/events?names=speed,bogus", "/v1/apps/demo/vehicle-data?names=bogus"] {
                try await client.execute(uri: path, method: .get, headers: [.accept: "text/event-stream"]) { response in
                    #expect(response.status == .unprocessableContent, "\(path)")
                    #expect(response.json?["issues"]?.arrayValue?.first?.stringValue?.hasPrefix("$.bogus") == true, "\(path)")
                }
            }
        }
    }

    @Test(
        "The simulator's routes find an app by its gateway id whether it registered with appID or fullAppID (the head unit knows it by its fullAppID)"
    )
    func simulatorRoutesTakeTheGatewayID() async throws {
        try await GatewayHarness.withGateway { client, _, _ in
            let body: SDLJSON = ["id": "radio", "appName": "Radio", "appID": "radio-1", "fullAppID": "radio-full-id"]
            try await client.execute(uri: "/v1/apps", method: .post, headers: GatewayHarness.jsonHeaders, body: GatewayHarness.json(body)) {
                response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/v1/simulator/apps/radio", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json?["appID"] == "radio-full-id")
            }
            try await GatewayHarness.createApp(client, id: "plain", appID: "plain-app")
            try await client.execute(uri: "/v1/simulator/apps/plain/screen", method: .get) { #expect($0.status == .ok) }
        }
    }
}
