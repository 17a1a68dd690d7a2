import AsyncHTTPClient
import Foundation
@testable import Gateway
import HTTPAPISupport
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import SDLProtocol
import TestSupport
import Testing

/// Issue "Security and availability": one rule for every way in (HTTP, WebSocket messages, SSE,
/// the simulator's control API), credentials a browser can send, and a budget for failures.
@Suite("Auth: tokens, scopes, tickets and subprotocols on every channel", .timeLimit(.minutes(1)))
struct AuthTests {
    typealias H = GatewayHarness

    static let reader = "reader-token-1"
    static let controller = "control-token-1"
    static func tokens(limits: GatewayLimits = GatewayLimits(requestsPerSecond: 0, authFailuresPerMinute: 0)) -> GatewayConfiguration {
        GatewayConfiguration(tokens: [reader: .read, controller: .control], limits: limits)
    }

    static let bearerReader: HTTPFields = [.authorization: "Bearer \(reader)"]
    static let bearerController: HTTPFields = [.authorization: "Bearer \(controller)"]

    /// A request path for an operation of openapi.yaml, its parameters filled in.
    static func concretePath(_ template: String) -> String {
        template
            .replacingOccurrences(of: "{id}", with: "demo")
            .replacingOccurrences(of: "{function}", with: "Show")
            .replacingOccurrences(of: "{button}", with: "OK")
            .replacingOccurrences(of: "/v1/spec/functions/{name}", with: "/v1/spec/functions/Show")
            .replacingOccurrences(of: "/v1/spec/types/{name}", with: "/v1/spec/types/SoftButton")
            .replacingOccurrences(of: "{name}", with: template.contains("buttons") ? "OK" : "note.txt")
            .replacingOccurrences(of: "{appID}", with: "demo-app")
            .replacingOccurrences(of: "{cmdID}", with: "1")
    }

    static let openOperations: Set<String> = ["GET /v1/health", "GET /openapi.yaml", "GET /"]

    @Test(
        "Every operation of openapi.yaml: no token → 401, read token on a control operation → 403, control token → allowed; only health and static files are open"
    )
    func everyOperation() async throws {
        let document = try String(contentsOf: OpenAPIContractTests.document, encoding: .utf8)
        let operations = OpenAPIOperations.parse(document)
        try await H.withGateway(Self.tokens()) { client, _, _ in
            try await H.createApp(client, headers: Self.bearerController)
            // DELETE /v1/apps/{id} last, so the app is there for the others.
            for operation in operations.sorted(by: {
                ($0.method == "DELETE" ? 1 : 0, $0.description) < ($1.method == "DELETE" ? 1 : 0, $1.description)
            }) {
                let method = HTTPRequest.Method(operation.method)!
                let path = Self.concretePath(operation.path)
                let access = AccessPolicy.required(method: method, path: path)
                let name = "\(operation.method) \(operation.path)"
                #expect((access == .open) == Self.openOperations.contains(name), "\(name) is \(access)")
                let needsControl = access == .control
                #expect(needsControl == !(operation.method == "GET" || name == "POST /v1/tickets"), "\(name) needs \(access)")
                func send(_ headers: HTTPFields) async throws -> (HTTPResponse.Status, String?) {
                    var headers = headers
                    headers[.contentType] = "application/json"
                    let body = method == .get ? nil : ByteBuffer(string: "{}")
                    return try await client.execute(uri: path, method: method, headers: headers, body: body) { ($0.status, $0.problemType) }
                }
                let (anonymous, anonymousProblem) = try await send([:])
                if access == .open {
                    #expect(anonymous != .unauthorized, "\(name) without a token")
                } else {
                    #expect(anonymous == .unauthorized && anonymousProblem == "unauthorized", "\(name) without a token: \(anonymous)")
                }
                if access != .open {
                    // The router skips empty segments: these reach the same operation, so they need the same token.
                    for variant in ["/" + path, path.replacingOccurrences(of: "/v1/", with: "/v1//"), path + "/", "//" + path + "//"] {
                        let status = try await client.execute(
                            uri: variant, method: method, headers: [.contentType: "application/json"],
                            body: method == .get ? nil : ByteBuffer(string: "{}")
                        ) { $0.status }
                        #expect(status == .unauthorized, "\(operation.method) \(variant) without a token: \(status)")
                    }
                }
                let (wrong, _) = try await send([.authorization: "Bearer not-a-token-at-all"])
                #expect(wrong == (access == .open ? anonymous : .unauthorized), "\(name) with a wrong token: \(wrong)")
                let (read, readProblem) = try await send(Self.bearerReader)
                if needsControl {
                    #expect(read == .forbidden && readProblem == "forbidden", "\(name) with a read token: \(read)")
                } else {
                    #expect(read != .unauthorized && read != .forbidden, "\(name) with a read token: \(read)")
                }
                let (control, controlProblem) = try await send(Self.bearerController)
                #expect(
                    control != .unauthorized && controlProblem != "forbidden",
                    "\(name) with a control token: \(control) \(controlProblem ?? "")")
            }
        }
    }

    @Test("Static files load without a token while /v1/apps does not; /metrics needs one")
    func staticFilesAreOpen() async throws {
        try await H.withGateway(Self.tokens()) { client, _, _ in
            for path in ["/", "/index.html", "/openapi.yaml"] {
                try await client.execute(uri: path, method: .get) { response in #expect(response.status == .ok, "\(path)") }
            }
            for path in ["/v1/apps", "/metrics", "/v1/spec"] {
                try await client.execute(uri: path, method: .get) { response in #expect(response.status == .unauthorized, "\(path)") }
            }
        }
    }

    @Test("WebSocket RPC with a read token: a 403 reply on the socket and nothing reaches the head unit; a control token's RPC is answered")
    func webSocketRPCNeedsControl() async throws {
        try await H.withGateway(Self.tokens(), mode: .live) { client, simulator, _ in
            try await H.createApp(client, headers: Self.bearerController)
            let showsBefore = simulator.snapshot.log.entries.filter { $0.function == "Show" }.count
            for (token, expected) in [(Self.reader, 403), (Self.controller, 200)] {
                _ = try await client.ws(
                    "/v1/apps/demo/events?types=connection", configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"])
                ) { inbound, outbound, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    try await outbound.write(.text(#"{"id":"c1","function":"Show","params":{"mainField1":"from a socket"}}"#))
                    let reply = try await LiveEventTests.read(&messages) { $0["id"] == "c1" }.last
                    #expect(reply?["status"]?.intValue == Int64(expected), "\(token)")
                    if expected == 403 {
                        #expect(reply?["problem"]?["type"] == "urn:sdl-gateway:problem:forbidden")
                        // A filter change is reading: allowed.
                        try await outbound.write(.text(#"{"filter":{"types":["hmiStatus"]}}"#))
                        let filter = try await LiveEventTests.read(&messages) { $0["filter"] != nil || $0["status"] != nil }.last
                        #expect(filter?["filter"] != nil)
                    }
                }
                if expected == 403 {
                    #expect(
                        simulator.snapshot.log.entries.filter { $0.function == "Show" }.count == showsBefore,
                        "a read token's RPC reached the head unit")
                }
            }
            #expect(
                simulator.snapshot.log.entries.filter { $0.function == "Show" }.count == showsBefore + 2,
                "the control token's Show: request and response")
        }
    }

    @Test(
        "A browser's WebSocket: the token as subprotocol bearer.<token>; the 101 selects sdl-gateway.v1 and never echoes the token; a wrong one is refused"
    )
    func subprotocol() async throws {
        try await H.withGateway(Self.tokens(), mode: .live) { client, _, _ in
            try await H.createApp(client, headers: Self.bearerController)
            let port = try #require(client.port)
            let offer = "Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.\(Self.controller)"
            let head = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/apps/demo/events", RawConnection.webSocketUpgrade + [offer]), until: "\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 101"), "\(head)")
            #expect(head.lowercased().contains("sec-websocket-protocol: sdl-gateway.v1\r\n"))
            #expect(!head.contains(Self.controller), "the token was echoed")
            let wrong = "Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.not-the-token"
            let refused = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/apps/demo/events", RawConnection.webSocketUpgrade + [wrong]), until: "}")
            // The 401 problem, as over HTTP (it was Hummingbird's bare 400).
            #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
            #expect(refused.contains("urn:sdl-gateway:problem:unauthorized"), "\(refused)")
            #expect(!refused.contains("not-the-token"))

            // The subprotocol's RPC runs with the token's scope.
            let headers: HTTPFields = [.secWebSocketProtocol: "sdl-gateway.v1, bearer.\(Self.reader)"]
            _ = try await client.ws("/v1/apps/demo/events?types=connection", configuration: .init(additionalHeaders: headers)) {
                inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"id":"r1","function":"Show","params":{"mainField1":"x"}}"#))
                let reply = try await LiveEventTests.read(&messages) { $0["id"] == "r1" }.last
                #expect(reply?["status"] == 403)
            }
        }
    }

    @Test(
        "Tickets: POST /v1/tickets with any token; single use on SSE and WebSocket; the ticket carries the token's scope; refused elsewhere"
    )
    func tickets() async throws {
        try await H.withGateway(Self.tokens(), mode: .live) { client, _, _ in
            try await H.createApp(client, headers: Self.bearerController)
            let port = try #require(client.port)
            func ticket(_ headers: HTTPFields) async throws -> String {
                try await client.execute(uri: "/v1/tickets", method: .post, headers: headers) { response in
                    #expect(response.status == .created)
                    #expect(response.json?["expiresIn"] == 30)
                    #expect(response.headers[.cacheControl] == "no-store")
                    return try #require(response.json?["ticket"]?.stringValue)
                }
            }
            try await client.execute(uri: "/v1/tickets", method: .post) { response in #expect(response.status == .unauthorized) }
            // SSE with a ticket, once.
            let sse = try await ticket(Self.bearerReader)
            let request = RawConnection.get("/v1/apps/demo/events?ticket=\(sse)", ["Accept: text/event-stream"])
            let first = try await RawConnection.exchange(port: port, request, until: ": sdl-gateway events")
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first)")
            let again = try await RawConnection.exchange(port: port, request, until: "\r\n\r\n")
            #expect(again.hasPrefix("HTTP/1.1 401"), "a ticket works once: \(again)")
            // Not a credential for anything but the event streams.
            let other = try await ticket(Self.bearerController)
            try await client.execute(uri: "/v1/apps?ticket=\(other)", method: .get) { response in #expect(response.status == .unauthorized)
            }
            // A WebSocket with a read ticket: events yes, RPCs no.
            let ws = try await ticket(Self.bearerReader)
            _ = try await client.ws("/v1/apps/demo/events?types=connection&ticket=\(ws)") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await outbound.write(.text(#"{"id":"t1","function":"Show","params":{"mainField1":"x"}}"#))
                let reply = try await LiveEventTests.read(&messages) { $0["id"] == "t1" }.last
                #expect(reply?["status"] == 403)
            }
            let reused = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/apps/demo/events?ticket=\(ws)", RawConnection.webSocketUpgrade), until: "\r\n\r\n")
            #expect(reused.hasPrefix("HTTP/1.1 401"), "a refused upgrade: \(reused)")
        }
    }

    @Test("Tickets expire after their lifetime and are bounded in number")
    func ticketStore() throws {
        let store = TicketStore(lifetime: .seconds(30), capacity: 2)
        let now = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
        let first = try store.issue(scope: .read, clientKey: "a", now: now)
        #expect(first.count == 64 && first.allSatisfy(\.isHexDigit))
        #expect(store.redeem(first, now: now + .seconds(30)) == nil, "expired at 30 s")
        let second = try store.issue(scope: .control, clientKey: "b", now: now)
        #expect(store.redeem(second, now: now + .seconds(29))?.scope == .control)
        #expect(store.redeem(second, now: now + .seconds(29)) == nil, "single use")
        _ = try store.issue(scope: .read, clientKey: "c", now: now)
        _ = try store.issue(scope: .read, clientKey: "c", now: now)
        #expect(throws: GatewayError.self) { try store.issue(scope: .read, clientKey: "c", now: now) }
        // Expired tickets make room.
        _ = try store.issue(scope: .read, clientKey: "c", now: now + .seconds(31))
        #expect(store.redeem("not-a-ticket") == nil)
    }

    @Test("Repeated bad tokens get 429 with Retry-After, over HTTP and WebSocket upgrades alike; then even a good token waits")
    func failedAuthenticationIsLimited() async throws {
        let configuration = Self.tokens(limits: GatewayLimits(requestsPerSecond: 0, authFailuresPerMinute: 3))
        try await H.withGateway(configuration, mode: .live) { client, _, _ in
            let port = try #require(client.port)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<2 {
                try await client.execute(uri: "/v1/apps", method: .get, headers: [.authorization: "Bearer guess-\(UUID())"]) {
                    statuses.append($0.status)
                }
            }
            let upgrade = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/events", RawConnection.webSocketUpgrade + ["Authorization: Bearer guess-ws"]),
                until: "\r\n\r\n")
            #expect(upgrade.hasPrefix("HTTP/1.1 401"), "a refused upgrade (the failure counts): \(upgrade)")
            // The budget (3, refilled at one per 20 s) is spent: guessing on gets 429. However slow
            // the machine, 20 more guesses outrun the refill.
            for _ in 0..<20 where statuses.last != .tooManyRequests {
                try await client.execute(uri: "/v1/apps", method: .get, headers: [.authorization: "Bearer guess-\(UUID())"]) { response in
                    statuses.append(response.status)
                    if response.status == .tooManyRequests {
                        #expect(Int(response.headers[.retryAfter] ?? "") != nil)
                        #expect(response.problemType == "rate-limited")
                    }
                }
            }
            #expect(Array(statuses.prefix(2)) == [.unauthorized, .unauthorized])
            #expect(statuses.last == .tooManyRequests && statuses.count <= 6, "\(statuses)")
            try await client.execute(uri: "/v1/apps", method: .get, headers: Self.bearerController) { response in
                #expect(response.status == .tooManyRequests)
            }
            try await client.execute(uri: "/v1/health", method: .get) { response in #expect(response.status == .ok) }
        }
    }

    @Test("The one policy: reads, tickets and filters need read; everything else control; static files open")
    func accessPolicy() {
        #expect(AccessPolicy.required(method: .get, path: "/v1/health") == .open)
        #expect(AccessPolicy.required(method: .get, path: "/sdl-gateway.js") == .open)
        #expect(AccessPolicy.required(method: .post, path: "/") == .control)
        #expect(AccessPolicy.required(method: .get, path: "/metrics") == .read)
        #expect(AccessPolicy.required(method: .post, path: "/v1/tickets") == .read)
        #expect(AccessPolicy.required(method: .put, path: "/v1/simulator/vehicle-data") == .control)
        #expect(AccessPolicy.required(.rpc) == .control)
        #expect(AccessPolicy.required(.filter) == .read)
        #expect(TokenScope.read.allows(.read) && !TokenScope.read.allows(.control) && TokenScope.control.allows(.control))
    }
}

@Suite("Auth: credentials from headers, subprotocols and tickets; nothing secret in logs", .timeLimit(.minutes(1)))
struct CredentialTests {
    static func request(_ path: String, _ headers: HTTPFields = [:]) -> Request {
        Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path, headerFields: headers),
            body: .init(buffer: ByteBuffer()))
    }

    @Test("The Authorization header wins, then a bearer. subprotocol, then ?ticket=")
    func credentialSources() {
        typealias C = Authenticator.Credential
        #expect(Authenticator.credential(of: Self.request("/v1/apps", [.authorization: "Bearer  abc"])) == C.token("abc"))
        #expect(Authenticator.credential(of: Self.request("/v1/apps", [.authorization: "Basic abc"])) == C.otherScheme("Basic"))
        #expect(Authenticator.credential(of: Self.request("/v1/apps", [.authorization: "abc"])) == C.otherScheme("abc"))
        #expect(
            Authenticator.credential(of: Self.request("/v1/apps", [.authorization: "tok-1:x y"])) == C.token(""),
            "not a scheme's name: never echoed")
        // Another scheme is named as such, not called a bad bearer token (issue 30, item 15).
        let authenticator = Authenticator(tokens: ["tok-12345": .read])
        #expect {
            try authenticator.authenticate(Self.request("/v1/apps", [.authorization: "Basic dXNlcjpwYXNz"]), address: "a")
        } throws: { error in
            let detail = (error as? GatewayError)?.detail ?? ""
            return detail.contains("Authorization: Basic is not accepted") && detail.contains("Bearer") && !detail.contains("dXNlcjpwYXNz")
        }
        #expect(
            Authenticator.credential(of: Self.request("/v1/events", [.secWebSocketProtocol: "sdl-gateway.v1, bearer.tok-1"]))
                == C.token("tok-1"))
        #expect(Authenticator.credential(of: Self.request("/v1/events", [.secWebSocketProtocol: "sdl-gateway.v1"])) == nil)
        #expect(Authenticator.credential(of: Self.request("/v1/events?ticket=abc")) == C.ticket("abc"))
        #expect(Authenticator.credential(of: Self.request("/v1/events?ticket=abc", [.authorization: "Bearer t"])) == C.token("t"))
        #expect(Authenticator.takesTickets(Self.request("/v1/apps/demo/events")))
        #expect(!Authenticator.takesTickets(Self.request("/v1/apps/demo")))
        #expect(!Authenticator.takesTickets(Self.request("/v1/apps/demo/events/x")))
    }

    @Test("Request logs redact tickets")
    func redaction() {
        #expect(RequestLogMiddleware.redacted(URI("/v1/events?types=a&ticket=0123abcd")) == "/v1/events?types=a&ticket=…")
        #expect(RequestLogMiddleware.redacted(URI("/v1/apps?x=1")) == "/v1/apps?x=1")
    }
}
