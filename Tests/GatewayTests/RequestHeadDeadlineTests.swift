import Gateway
import HTTPAPISupport
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

/// `limits.requestHeadTimeout`: a connection must send its first complete request head in time,
/// or it gets a 408 problem and is closed (issue "Reliability and security suite").
@Suite("HTTP connections: the first request head has a deadline", .timeLimit(.minutes(1)))
struct RequestHeadDeadlineTests {
    typealias H = GatewayHarness

    /// A live gateway whose request head timeout is short (200 ms unless said), and its port.
    static func withShortHeadTimeout(_ timeout: Duration = .milliseconds(200), _ body: @Sendable (Int) async throws -> Void) async throws {
        let configuration = GatewayConfiguration(limits: GatewayLimits(requestHeadTimeout: timeout))
        try await H.withGateway(configuration, mode: .live) { client, _, _ in
            try await body(try #require(client.port))
        }
    }

    @Test("The end of a head is the first blank line after the request line, fed in any chunks")
    func scanner() {
        let head = Array("GET /v1/health HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        var scanner = HeadEndScanner()
        for (index, byte) in head.enumerated() {
            let complete = scanner.scan([byte])
            #expect(complete == (index == head.count - 1), "byte \(index)")
        }
        var lenient = HeadEndScanner()
        let lenientEnd = lenient.scan(Array("GET / HTTP/1.1\nHost: a\n\n".utf8))
        #expect(lenientEnd)
        var blank = HeadEndScanner()
        let emptyLines = blank.scan(Array("\r\n\r\n\r\n".utf8))
        #expect(!emptyLines, "empty lines before the request line start no head")
        let headers = blank.scan(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8))
        #expect(!headers)
        let end = blank.scan(Array("\r\n".utf8))
        #expect(end)
    }

    @Test("A client that drips half a request line, or says nothing, gets 408 request-head-timeout and is closed")
    func incompleteHeadsAreClosed() async throws {
        try await Self.withShortHeadTimeout { port in
            for opening in ["GET /v1/health HTTP/1.1\r\nHost: 12", "G", ""] {
                let answer = try await RawConnection.readUntilClosed(port: port, sending: opening, limit: .seconds(10))
                let text = try #require(
                    answer, "the server held a connection without a request head for 10 s (sent \(opening.debugDescription))")
                #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(text)")
                #expect(text.contains("Connection: close"))
                #expect(text.contains("\"type\":\"urn:sdl-gateway:problem:request-head-timeout\""))
            }
        }
    }

    @Test("The control APIs' server (simulate --control, hmi --control) has the same deadline")
    func controlAPIServer() async throws {
        let router = Router()
        router.get("/ping") { _, _ in "pong" }
        // 1 s, not 200 ms: the /ping after the timeout must send its head within it on a busy machine.
        let application = Application(router: router, server: .boundedHTTP1(requestHeadTimeout: .seconds(1)))
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let answer = try await RawConnection.readUntilClosed(port: port, sending: "GET /pi", limit: .seconds(10))
            let text = try #require(answer, "the control API held a connection without a request head for 10 s")
            #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(text)")
            // A connection closed before its head could be written (a busy machine) was late, not
            // refused: the attempt is repeated, as in completeHeadsAreNotTimed.
            var pong: String?
            for _ in 1...3 where pong?.hasPrefix("HTTP/1.1 200") != true {
                pong = try? await RawConnection.exchange(port: port, RawConnection.get("/ping", []), until: "pong")
            }
            #expect(pong?.hasPrefix("HTTP/1.1 200") == true, "\(pong ?? "three connections closed before their head")")
        }
    }

    @Test("Once the first head is in, the deadline is gone: a kept-alive connection outlives it, and WebSocket upgrades work")
    func completeHeadsAreNotTimed() async throws {
        // 1 s, so that a busy machine's delay between connecting and writing the first head
        // rarely reaches it; when it does, the server's 408 is right and the attempt is repeated.
        try await Self.withShortHeadTimeout(.seconds(1)) { port in
            var outlived = false
            for attempt in 1...3 where !outlived {
                outlived = try await Self.outliveHeadTimeout(port: port, attempt: attempt)
            }
            #expect(outlived, "three connections were closed before their first head arrived")
            // The same allowance for the upgrade's head: a connection closed before it could be
            // written (the write fails) or answered 408 was late, and the attempt is repeated.
            var upgrade: String?
            for _ in 1...3 where upgrade == nil {
                let answer = try? await RawConnection.exchange(
                    port: port, RawConnection.get("/v1/apps/none/events", RawConnection.webSocketUpgrade), until: "\r\n\r\n"
                )
                if let answer, answer.hasPrefix("HTTP/1.1 "), !answer.hasPrefix("HTTP/1.1 408") { upgrade = answer }
            }
            #expect(upgrade != nil, "three upgrade requests were closed or answered 408 before their head arrived")
        }
    }

    /// One kept-alive connection: a first GET, 1.5 s of quiet, a second GET. False when the
    /// first head itself was late (the server closed the connection first, as it should);
    /// any failure after the first answer is the test's.
    static func outliveHeadTimeout(port: Int, attempt: Int) async throws -> Bool {
        let connection = try await RawConnection.connect(port: port)
        return try await connection.channel.executeThenClose { inbound, outbound in
            var responses = inbound.makeAsyncIterator()
            func exchange() async throws -> String {
                try await outbound.write(ByteBuffer(string: RawConnection.get("/v1/health", [])))
                var text = ""
                while !text.contains("\r\n\r\n") || !text.hasSuffix("}"), let chunk = try await responses.next() {
                    text += String(buffer: chunk)
                }
                return text
            }
            guard let first = try? await exchange(), first.hasPrefix("HTTP/1.1 200") else {
                print("attempt \(attempt): the first head reached the server after its deadline")
                return false
            }
            // Not synchronisation: outliving the head timeout on a kept-alive connection is what is tested.
            try await Task.sleep(for: .milliseconds(1_500))
            let second = try await exchange()
            #expect(second.hasPrefix("HTTP/1.1 200"), "after 1.5 s on a kept-alive connection: \(second)")
            return true
        }
    }
}
