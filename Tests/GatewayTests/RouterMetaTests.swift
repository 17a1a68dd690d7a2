import Gateway
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOCore
import SDLProtocol
import SDLTransport
import Synchronization
import Testing

@Suite("HTTP API: health, readiness, contract, UI, auth, CORS and limits", .timeLimit(.minutes(1)))
struct RouterMetaTests {
    typealias H = GatewayHarness

    @Test("Health, readiness (the head unit's port answers; every app registered), openapi.yaml and the page at /")
    func meta() async throws {
        try await H.withGateway { client, _, _ in
            try await client.execute(uri: "/v1/health", method: .get) { response in #expect(response.json == ["status": "ok"]) }
            try await client.execute(uri: "/v1/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json?["apps"]?["total"] == 0)
            }
            try await H.createApp(client)
            try await client.execute(uri: "/v1/ready", method: .get) { response in
                #expect(response.json?["apps"] == ["total": 1, "registered": 1])
            }
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(response.headers[.contentType] == "application/yaml")
                #expect(String(buffer: response.body).hasPrefix("openapi: 3.1"))
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<title>sdl-gateway</title>"))
            }
            try await client.execute(uri: "/v1/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.problemType == "not-found")
            }
            try await client.execute(uri: "/v1/apps/demo/events", method: .get) { response in
                #expect(response.status == .notAcceptable)
            }
            // A WebSocket from another site's page is refused (the upgrade falls back to HTTP here).
            let upgrade: HTTPFields = [.upgrade: "websocket", .connection: "Upgrade", .origin: "http://evil.example"]
            try await client.execute(uri: "/v1/apps/demo/events", method: .get, headers: upgrade) { response in
                #expect(response.status == .forbidden)
                #expect(response.problemType == "origin-not-allowed")
            }
        }
    }

    @Test("Not ready while the head unit is unreachable: 503 with the reason")
    func notReady() async throws {
        let configuration = GatewayConfiguration(port: 0, sessions: .init(defaultCore: SDLTransportAddress.tcp(host: "127.0.0.1", port: 1)))
        let (application, _) = try await buildApplication(configuration, logger: .init(label: "test"))
        try await application.test(.router) { client in
            try await client.execute(uri: "/v1/ready", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.problemType == "not-connected")
            }
        }
    }

    @Test("Bearer tokens: none → 401 with WWW-Authenticate; read token may GET but not POST (403); control may; health is open")
    func auth() async throws {
        let configuration = GatewayConfiguration(tokens: ["reader-token": .read, "control-token": .control])
        try await H.withGateway(configuration) { client, _, _ in
            try await client.execute(uri: "/v1/apps", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                #expect(response.problemType == "unauthorized")
            }
            try await client.execute(uri: "/v1/apps", method: .get, headers: [.authorization: "Bearer wrong-token"]) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/apps", method: .get, headers: [.authorization: "Bearer reader-token"]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/v1/apps", method: .post, headers: [.authorization: "Bearer reader-token", .contentType: "application/json"],
                body: H.json(["appName": "A", "appID": "a"])
            ) { response in
                #expect(response.status == .forbidden)
                #expect(response.problemType == "forbidden")
            }
            try await H.createApp(client, headers: [.authorization: "Bearer control-token"])
            try await client.execute(uri: "/v1/health", method: .get) { response in #expect(response.status == .ok) }
        }
    }

    @Test("CORS: an allowed origin gets the headers and a preflight answer; another origin gets neither")
    func cors() async throws {
        try await H.withGateway(GatewayConfiguration(corsOrigins: ["http://localhost:3000"])) { client, _, _ in
            try await client.execute(uri: "/v1/apps", method: .get, headers: [.origin: "http://localhost:3000"]) { response in
                #expect(response.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            }
            try await client.execute(uri: "/v1/apps", method: .get, headers: [.origin: "http://evil.example"]) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
            let preflight: HTTPFields = [.origin: "http://localhost:3000", .accessControlRequestMethod: "POST"]
            try await client.execute(uri: "/v1/apps", method: .options, headers: preflight) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowMethods]?.contains("POST") == true)
            }
            try await client.execute(
                uri: "/v1/apps", method: .options, headers: [.origin: "http://evil.example", .accessControlRequestMethod: "POST"]
            ) { response in
                #expect(response.status == .forbidden)
            }
            // Errors carry the CORS headers too, so a browser can read them.
            try await client.execute(uri: "/v1/apps/nobody", method: .get, headers: [.origin: "http://localhost:3000"]) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            }
        }
    }

    @Test(
        "A JSON body must say it is JSON (text/plain and none are what a cross-site page sends without a preflight): 415; curl's form type passes"
    )
    func contentType() async throws {
        try await H.withGateway { client, _, _ in
            let body = H.json(["appName": "A", "appID": "a"])
            for type in ["text/plain", nil] {
                let headers: HTTPFields = type.map { [.contentType: $0] } ?? [:]
                try await client.execute(uri: "/v1/apps", method: .post, headers: headers, body: body) { response in
                    #expect(response.status == .unsupportedMediaType)
                    #expect(response.problemType == "unsupported-media-type")
                }
            }
            try await client.execute(
                uri: "/v1/apps", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: body
            ) { response in
                #expect(response.status == .created)
            }
            // File uploads take any type.
            try await client.execute(
                uri: "/v1/apps/a/files/x.txt", method: .put, headers: [.contentType: "text/plain"], body: ByteBuffer(string: "x")
            ) { response in
                #expect(response.status != .unsupportedMediaType)
            }
        }
    }

    @Test("Limits: a JSON body over 1 MiB is 413; past the request rate 429 with Retry-After")
    func limits() async throws {
        try await H.withGateway(GatewayConfiguration(limits: GatewayLimits(requestsPerSecond: 1))) { client, _, _ in
            let large = ByteBuffer(repeating: UInt8(ascii: " "), count: GatewayLimits.defaultBodySize + 1)
            try await client.execute(uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: large) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.problemType == "body-too-large")
            }
            // A burst of ten seconds' worth (10), refilled at one a second: however slow the
            // machine, 200 requests outrun the refill long before they end.
            var limited = false
            for _ in 0..<200 where !limited {
                try await client.execute(uri: "/v1/apps", method: .get) { response in
                    if response.status == .tooManyRequests {
                        limited = true
                        #expect(Int(response.headers[.retryAfter] ?? "") != nil)
                        #expect(response.problemType == "rate-limited")
                    }
                }
            }
            #expect(limited)
            try await client.execute(uri: "/v1/health", method: .get) { response in #expect(response.status == .ok) }
        }
    }

    @Test("Messages on an event WebSocket spend the client's request budget: past it a 429 reply, and nothing reaches the head unit")
    func webSocketMessagesAreRateLimited() async throws {
        try await H.withGateway(GatewayConfiguration(limits: GatewayLimits(requestsPerSecond: 1)), mode: .live) { client, simulator, _ in
            try await H.createApp(client)
            let showsBefore = simulator.snapshot.log.entries.filter { $0.function == "Show" }.count
            // A burst of 10, refilled at one a second: 40 messages outrun it however slow the machine.
            let recorded = Mutex<[Int64]>([])
            _ = try await client.ws("/v1/apps/demo/events?types=connection") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                for index in 0..<40 {
                    try await outbound.write(.text(#"{"id":"m\#(index)","function":"Show","params":{"mainField1":"\#(index)"}}"#))
                    let reply = try await LiveEventTests.read(&messages) { $0["id"]?.stringValue == "m\(index)" }.last
                    recorded.withLock { $0.append(reply?["status"]?.intValue ?? 0) }
                    if reply?["status"] == 429 {
                        #expect(reply?["problem"]?["type"] == "urn:sdl-gateway:problem:rate-limited")
                        break
                    }
                }
            }
            let statuses = recorded.withLock { $0 }
            #expect(statuses.last == 429, "\(statuses)")
            let answered = statuses.filter { $0 == 200 }.count
            #expect(answered >= 1 && statuses.allSatisfy { $0 == 200 || $0 == 429 })
            // Each answered Show is a request and a response in the head unit's log; the refused one is not.
            #expect(simulator.snapshot.log.entries.filter { $0.function == "Show" }.count == showsBefore + 2 * answered)
        }
    }
}
