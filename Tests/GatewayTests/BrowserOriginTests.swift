import Gateway
import HTTPAPISupport
import HeadUnitSimulator
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SimulatorControl
import TestSupport
import Testing

/// ``BrowserOriginRule`` on every way in: cross-site requests (a "simple" POST needs no
/// preflight) and DNS rebinding are refused by the gateway and by the control APIs, with or
/// without tokens (SECURITY.md, "Browsers").
@Suite("Browsers: other origins and re-pointed host names are refused", .timeLimit(.minutes(1)))
struct BrowserOriginTests {
    typealias H = GatewayHarness

    @Test("Same origin: same host and port, a missing port being the scheme's default")
    func sameOrigin() {
        #expect(BrowserOriginRule.sameOrigin("http://127.0.0.1:8080", authority: "127.0.0.1:8080"))
        #expect(BrowserOriginRule.sameOrigin("https://Gateway.example", authority: "gateway.example"))
        #expect(BrowserOriginRule.sameOrigin("https://gateway.example", authority: "gateway.example:443"))
        #expect(BrowserOriginRule.sameOrigin("http://[::1]:8080", authority: "[::1]:8080"))
        #expect(!BrowserOriginRule.sameOrigin("http://localhost", authority: "localhost:8080"), "port 80 is not 8080")
        #expect(!BrowserOriginRule.sameOrigin("http://127.0.0.1:3000", authority: "127.0.0.1:8080"))
        #expect(!BrowserOriginRule.sameOrigin("http://evil.example", authority: "127.0.0.1"))
        #expect(!BrowserOriginRule.sameOrigin("null", authority: "127.0.0.1:8080"))
        // WebSocket client libraries name no port; no page has a ws: origin.
        #expect(BrowserOriginRule.sameOrigin("ws://localhost", authority: "localhost:8080"))
        #expect(!BrowserOriginRule.sameOrigin("ws://evil.example", authority: "localhost:8080"))
        #expect(!BrowserOriginRule.sameOrigin("ws://localhost:3000", authority: "localhost:8080"))
        #expect(BrowserOriginRule.isLoopback(host: "127.0.0.1") && BrowserOriginRule.isLoopback(host: "127.1.2.3"))
        #expect(BrowserOriginRule.isLoopback(host: "LOCALHOST") && BrowserOriginRule.isLoopback(host: "app.localhost"))
        #expect(BrowserOriginRule.isLoopback(host: "[::1]"))
        #expect(!BrowserOriginRule.isLoopback(host: "127.example.com") && !BrowserOriginRule.isLoopback(host: "10.0.0.1"))
    }

    @Test(
        "Without tokens: a POST from another page (a form's content type, no preflight) is 403 origin-not-allowed and never reaches the head unit; the gateway's own page and CORS origins pass"
    )
    func crossSitePost() async throws {
        try await H.withGateway(GatewayConfiguration(corsOrigins: ["http://localhost:3000"])) { client, _, _ in
            try await H.createApp(client)
            let body = ByteBuffer(string: #"{"mainField1":"from a page"}"#)
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "http://evil.example"]
            for (uri, method) in [
                ("/v1/apps/demo/rpc/Show", HTTPRequest.Method.post), ("/v1/apps/demo/vehicle-data", .get), ("/v1/apps/demo", .delete),
            ] {
                try await client.execute(uri: uri, method: method, headers: form, body: method == .post ? body : nil) { response in
                    #expect(response.status == .forbidden, "\(method) \(uri)")
                    #expect(response.problemType == "origin-not-allowed")
                }
            }
            try await client.execute(uri: "/v1/simulator/log", method: .get) { response in
                #expect(!String(buffer: response.body).contains(#""function":"Show""#), "a refused Show reached the head unit")
            }
            try await client.execute(
                uri: "/v1/apps/demo/rpc/Show", method: .post,
                headers: [.contentType: "application/json", .origin: "http://localhost:3000"], body: body
            ) { response in
                #expect(response.status == .ok, "a CORS origin")
            }
        }
    }

    @Test("Without tokens on loopback, only loopback Host names are answered (DNS rebinding); with tokens any name is")
    func rebinding() async throws {
        try await H.withGateway(GatewayConfiguration(), mode: .live) { client, _, _ in
            let port = try #require(client.port)
            for (host, expected) in [("evil.example:\(port)", "403"), ("127.0.0.1:\(port)", "200"), ("localhost:\(port)", "200")] {
                let answer = try await RawConnection.exchange(
                    port: port, "GET /v1/apps HTTP/1.1\r\nHost: \(host)\r\n\r\n", until: "\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 \(expected)"), "Host \(host): \(answer)")
                if expected == "403" { #expect(answer.contains("host-not-allowed")) }
            }
            let origin = try await RawConnection.exchange(
                port: port,
                "POST /v1/apps HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                until: "\r\n\r\n"
            )
            #expect(!origin.hasPrefix("HTTP/1.1 403"), "the gateway's own page: \(origin)")
        }
        try await H.withGateway(AuthTests.tokens(), mode: .live) { client, _, _ in
            let port = try #require(client.port)
            let answer = try await RawConnection.exchange(
                port: port, "GET /v1/health HTTP/1.1\r\nHost: gateway.example\r\n\r\n", until: "\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "with tokens: \(answer)")
        }
    }

    @Test("Security headers on every answer: the page, the API, a 404, a refusal; and on the control APIs")
    func securityHeaders() async throws {
        @Sendable func check(_ headers: HTTPFields, _ what: String) {
            for (name, value) in SecurityHeaders.fields {
                #expect(headers[name] == value, "\(name) on \(what)")
            }
        }
        try await H.withGateway(GatewayConfiguration()) { client, _, _ in
            for uri in ["/", "/v1/health", "/v1/apps/none"] {
                try await client.execute(uri: uri, method: .get) { check($0.headers, uri) }
            }
            try await client.execute(uri: "/v1/apps", method: .post, headers: [.origin: "http://evil.example"]) { response in
                #expect(response.status == .forbidden)
                check(response.headers, "a refused origin")
            }
        }
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(), logger: Logger.test("test"))
        let application = Application(router: SimulatorControlRoutes(simulator: simulator).makeRouter(), server: .boundedHTTP1())
        try await application.test(.router) { client in
            try await client.execute(uri: "/apps", method: .get) { check($0.headers, "the control API") }
        }
    }

    @Test("The control APIs: another page's POST and a non-loopback Host are 403; curl is served")
    func controlAPI() async throws {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(), logger: Logger.test("test"))
        let application = Application(router: SimulatorControlRoutes(simulator: simulator).makeRouter(), server: .boundedHTTP1())
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let press =
                "POST /buttons/OK/press HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n"
            let crossSite = try await RawConnection.exchange(port: port, press + "Origin: http://evil.example\r\n\r\n", until: "\r\n\r\n")
            #expect(crossSite.hasPrefix("HTTP/1.1 403") && crossSite.contains("origin-not-allowed"), "\(crossSite)")
            let rebound = try await RawConnection.exchange(
                port: port, "GET /apps HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n", until: "\r\n\r\n")
            #expect(rebound.hasPrefix("HTTP/1.1 403") && rebound.contains("host-not-allowed"), "\(rebound)")
            let curl = try await RawConnection.exchange(
                port: port, "GET /apps HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", until: "\r\n\r\n")
            #expect(curl.hasPrefix("HTTP/1.1 200"), "\(curl)")
        }
    }
}
