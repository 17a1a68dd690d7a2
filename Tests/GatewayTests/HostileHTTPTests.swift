import Gateway
import HTTPAPISupport
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// Issue "Reliability and security suite": what a hostile or broken client sends gets a clear 4xx
/// (an `application/problem+json` with its code) or a clean close, never a 5xx, a crash or a
/// connection held for ever; and each time `GET /v1/health` on a new connection still answers.
/// Every request goes on a raw connection of its own (``RawAnswer``), as bytes.
@Suite("Hostile HTTP input: a clear 4xx or a clean close, and the server keeps serving", .timeLimit(.minutes(1)))
struct HostileHTTPTests {
    typealias H = GatewayHarness
    typealias A = RawAnswer

    /// A live gateway with the app `demo` registered, and its port.
    static func withGateway(_ limits: GatewayLimits = GatewayLimits(), _ body: @Sendable (Int) async throws -> Void) async throws {
        try await H.withGateway(GatewayConfiguration(limits: limits), mode: .live) { client, _, _ in
            try await H.createApp(client)
            try await body(try #require(client.port))
        }
    }

    /// Each body, sent to an RPC route as JSON, is 400 invalid-body; then the server still serves.
    static func expectInvalidBody(port: Int, _ bodies: [[UInt8]], _ what: String) async throws {
        for body in bodies {
            let answer = try await A.exchange(port: port, postJSON("/v1/apps/demo/rpc/Show", body))
            #expect(
                answer?.status == 400 && answer?.problemType == "invalid-body",
                "\(what), \(body.count) bytes: \(answer?.summary ?? "no answer in 10 s")")
        }
        try await A.expectServing(port: port, after: what)
    }

    static func postJSON(_ target: String, _ body: [UInt8]) -> [UInt8] {
        A.request("POST", target, headers: ["Content-Type: application/json"], body: body)
    }

    @Test("A JSON body nested 100,000 levels deep (arrays, objects) to an RPC route: 400 invalid-body, the parser stops at depth 64")
    func deepNesting() async throws {
        try await Self.withGateway { port in
            let bodies = [("[", "]"), (#"{"a":"#, "}")].map { open, close in
                Array((String(repeating: open, count: 100_000) + String(repeating: close, count: 100_000)).utf8)
            }
            try await Self.expectInvalidBody(port: port, bodies, "deep nesting")
        }
    }

    @Test("A body of invalid UTF-8 (C3 28 FF) sent as application/json, bare or inside a JSON string: 400 invalid-body")
    func invalidUTF8Body() async throws {
        try await Self.withGateway { port in
            let invalid: [UInt8] = [0xC3, 0x28, 0xFF]
            try await Self.expectInvalidBody(
                port: port, [invalid, Array(#"{"mainField1":""#.utf8) + invalid + Array(#""}"#.utf8)], "invalid UTF-8 bodies")
        }
    }

    @Test("Invalid percent-encoding and invalid UTF-8 in the path and the query: a 4xx with a problem, never a 5xx")
    func invalidPathsAndQueries() async throws {
        try await Self.withGateway { port in
            let sse = ["Accept: text/event-stream"]
            let cases: [(method: String, target: [UInt8], headers: [String], status: Int, problem: String)] = [
                ("GET", Array("/v1/apps/%FF%FE".utf8), [], 400, "invalid-path"),
                ("GET", Array("/v1/apps/%zz".utf8), [], 400, "invalid-path"),
                ("DELETE", Array("/v1/apps/%C3%28".utf8), [], 400, "invalid-path"),
                // Not a vehicle data name of the RPC spec, whatever it decodes to.
                ("GET", Array("/v1/apps/demo/vehicle-data?names=%FF%FE".utf8), [], 422, "invalid-parameters"),
                ("GET", Array("/v1/events?types=%FF%FE".utf8), sse, 400, "invalid-query"),
                ("GET", Array("/v1/apps?%FF=%FE".utf8), [], 400, "invalid-query"),
                // Raw bytes that are not UTF-8 (nor allowed in a request line): the decoder refuses them.
                ("GET", Array("/v1/apps/".utf8) + [0xFF, 0xFE], [], 400, "invalid-request"),
            ]
            for (method, target, headers, status, problem) in cases {
                let name = "\(method) \(String(decoding: target, as: UTF8.self))"
                let answer = try await A.exchange(port: port, A.request(method, target, headers: headers))
                #expect(answer?.status == status && answer?.problemType == problem, "\(name): \(answer?.summary ?? "no answer in 10 s")")
            }
            try await A.expectServing(port: port, after: "invalid paths and queries")
        }
    }

    @Test(
        "Huge headers: one of 100 KB (over 80 KiB), or 1,000 short ones (with Host over Hummingbird's 1,000 fields): 431 headers-too-large and a close; 900 short ones are served"
    )
    func hugeHeaders() async throws {
        try await Self.withGateway { port in
            let oneHuge = ["X-Huge: " + String(repeating: "a", count: 100_000)]
            let thousand = (0..<1_000).map { "X-H\($0): b" }
            for (name, headers) in [("one 100 KB header", oneHuge), ("1,000 headers", thousand)] {
                let answer = try await A.exchange(port: port, A.request("GET", "/v1/health", headers: headers))
                #expect(answer != nil, "\(name): neither answered nor closed in 10 s")
                if let refused = answer {
                    // The server closes at once; a client still writing its head may see the close
                    // as a reset, before the 431 was read.
                    #expect(
                        refused.status == 431 && refused.problemType == "headers-too-large" || refused.closedEarly && refused.text.isEmpty,
                        "\(name): \(refused.summary)")
                }
                try await A.expectServing(port: port, after: name)
            }
            let answer = try await A.exchange(port: port, A.request("GET", "/v1/health", headers: Array(thousand.prefix(900))))
            #expect(answer?.status == 200, "900 short headers: \(answer?.summary ?? "no answer in 10 s")")
        }
    }

    @Test("A slow body (Content-Length: 1000, then 10 bytes and silence) is cut at limits.idleTimeout: closed without a response")
    func slowBody() async throws {
        try await Self.withGateway(GatewayLimits(idleTimeout: .milliseconds(500))) { port in
            let head = A.request("POST", "/v1/apps/demo/rpc/Show", headers: ["Content-Type: application/json", "Content-Length: 1000"])
            let started = ContinuousClock.now
            let answer = try await A.exchange(port: port, head + Array(#"{"mainFiel"#.utf8), limit: .seconds(20))
            let cut = try #require(answer, "the server held a stalled body for 20 s")
            #expect(cut.closedEarly && cut.text.isEmpty, "\(cut.summary)")
            #expect(ContinuousClock.now - started >= .milliseconds(500), "closed before the idle timeout")
            try await A.expectServing(port: port, after: "a stalled body")
        }
    }

    @Test(
        "A trickled body (a byte every 50 ms, each one restarting the idle timer) is cut by limits.minimumBodyRate: closed without a response"
    )
    func trickledBody() async throws {
        let limits = GatewayLimits(idleTimeout: .seconds(5), minimumBodyRate: 100, bodyRateGrace: .milliseconds(300))
        try await Self.withGateway(limits) { port in
            let head = A.request("POST", "/v1/apps/demo/rpc/Show", headers: ["Content-Type: application/json", "Content-Length: 1000"])
            let started = ContinuousClock.now
            // 20 bytes a second against a minimum of 100: the whole body would take 50 s.
            let closed = try await RawConnection.connect(port: port).within(.seconds(20)) { connection in
                try await connection.channel.executeThenClose { inbound, outbound in
                    try await withThrowingTaskGroup(of: Bool.self) { group in
                        group.addTask {
                            var iterator = inbound.makeAsyncIterator()
                            while (try? await iterator.next()) ?? nil != nil {}
                            return true
                        }
                        group.addTask {
                            try? await outbound.write(ByteBuffer(bytes: head))
                            for _ in 0..<1000 {
                                // Pacing the trickle, the input under test; not synchronisation.
                                try await Task.sleep(for: .milliseconds(50))
                                // A write that fails found the connection closed by the server.
                                do { try await outbound.write(ByteBuffer(string: " ")) } catch { return true }
                            }
                            return false
                        }
                        defer { group.cancelAll() }
                        return try await group.next() ?? false
                    }
                }
            }
            #expect(closed == true, "the server held a trickled body for 20 s")
            let elapsed = ContinuousClock.now - started
            #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(15), "cut after \(elapsed)")
            try await A.expectServing(port: port, after: "a trickled body")
        }
    }

    @Test("The body rate rule: nothing is owed during the grace period, then the rate times the time past it")
    func bodyRateRule() {
        let rule = MinimumBodyRate.Rule(bytesPerSecond: 1000, grace: .seconds(10), interval: .seconds(1))
        #expect(!rule.isTooSlow(received: 0, elapsed: .seconds(10)))
        #expect(rule.isTooSlow(received: 0, elapsed: .seconds(11)))
        #expect(!rule.isTooSlow(received: 1000, elapsed: .seconds(11)))
        #expect(rule.isTooSlow(received: 4999, elapsed: .seconds(15)))
        #expect(!MinimumBodyRate.Rule(bytesPerSecond: 0, grace: .zero, interval: .seconds(1)).isTooSlow(received: 0, elapsed: .hours(1)))
    }

    @Test(
        "A body over the 1 MiB JSON limit sent at once: 413 body-too-large, then the rest is drained and the next request on the connection answered"
    )
    func oversizedBody() async throws {
        try await Self.withGateway { port in
            let body = [UInt8](repeating: UInt8(ascii: " "), count: GatewayLimits.defaultBodySize + 64 * 1024)
            let requests = [Self.postJSON("/v1/apps/demo/rpc/Show", body), A.request("GET", "/v1/health")]
            let answers = try #require(try await A.exchange(port: port, requests), "neither answered nor closed in 10 s")
            #expect(
                answers.first?.status == 413 && answers.first?.problemType == "body-too-large", "\(answers.first?.summary ?? "no answer")")
            #expect(
                answers.count == 2 && answers[1].status == 200,
                "the same connection after the 413: \(answers.dropFirst().first?.summary ?? "none")")
            try await A.expectServing(port: port, after: "an oversized body")
        }
    }
}
