import Gateway
import HTTPTypes
import HummingbirdTesting
import Logging
import SDLProtocol
import Synchronization
import TestSupport
import Testing

/// Every line a logger writes, as text with all its metadata (the logger's, its provider's and
/// the call's) and its error.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    /// A trace-level logger that writes here.
    func logger(label: String) -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }

    struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
            if let given = event.metadata { merged.merge(given) { _, new in new } }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let error = event.error.map { " error=\($0)" } ?? ""
            let line = "\(event.level) \(label) \(event.source) \(event.message) \(fields)\(error)"
            capture.lines.withLock { $0.append(line) }
        }
    }
}

/// Issue "Reliability and security suite": no credential reaches the log, at any level.
@Suite("Tokens and tickets are never logged", .timeLimit(.minutes(1)))
struct TokenLoggingTests {
    typealias H = GatewayHarness

    @Test(
        "At trace level, bearer headers, bearer. subprotocols, a wrong token and tickets leave no trace in any log line or metadata; the requests themselves are logged"
    )
    func noCredentialInTheLog() async throws {
        let capture = LogCapture()
        let wrong = "wrong-token-0bad"
        let tickets = Mutex<[String]>([])
        try await H.withGateway(AuthTests.tokens(), mode: .live, logger: capture.logger(label: "sdl-gateway")) { client, _, _ in
            try await H.createApp(client, headers: AuthTests.bearerController)
            let port = try #require(client.port)
            try await client.execute(uri: "/v1/apps/demo", method: .get, headers: AuthTests.bearerReader) { #expect($0.status == .ok) }
            try await client.execute(
                uri: "/v1/apps/demo/rpc/Show", method: .post, headers: AuthTests.bearerController + H.jsonHeaders,
                body: H.json(["mainField1": "logged?"])
            ) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/v1/apps", method: .get, headers: [.authorization: "Bearer \(wrong)"]) {
                #expect($0.status == .unauthorized)
            }
            let subprotocol = "Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.\(AuthTests.controller)"
            let upgrade = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/apps/demo/events", RawConnection.webSocketUpgrade + [subprotocol]), until: "\r\n\r\n")
            #expect(upgrade.hasPrefix("HTTP/1.1 101"), "\(upgrade)")
            let refused = try await RawConnection.exchange(
                port: port, RawConnection.get("/v1/events", RawConnection.webSocketUpgrade + ["Authorization: Bearer \(wrong)"]),
                until: "\r\n\r\n")
            #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
            for (path, headers) in [
                ("/v1/apps/demo/events", ["Accept: text/event-stream"]), ("/v1/events", RawConnection.webSocketUpgrade),
            ] {
                let ticket = try await client.execute(uri: "/v1/tickets", method: .post, headers: AuthTests.bearerReader) { response in
                    try #require(response.json?["ticket"]?.stringValue)
                }
                tickets.withLock { $0.append(ticket) }
                let request = RawConnection.get("\(path)?ticket=\(ticket)", headers)
                let opened = try await RawConnection.exchange(port: port, request, until: "\r\n\r\n")
                #expect(opened.hasPrefix("HTTP/1.1 200") || opened.hasPrefix("HTTP/1.1 101"), "\(path): \(opened)")
                // Used once: the second use fails, and a failure is logged too.
                let reused = try await RawConnection.exchange(port: port, request, until: "\r\n\r\n")
                #expect(reused.hasPrefix("HTTP/1.1 401") || reused.hasPrefix("HTTP/1.1 400"), "\(path) again: \(reused)")
            }
        }
        let lines = capture.all
        // The capture works and holds the requests: otherwise the search below proves nothing.
        #expect(!lines.isEmpty)
        for path in ["/v1/apps/demo/rpc/Show", "/v1/apps/demo", "/v1/tickets", "/v1/apps/demo/events?ticket=…"] {
            #expect(lines.contains { $0.contains("hb.request.path=\(path)") }, "no log line for \(path)")
        }
        #expect(
            lines.contains { $0.contains("request failed") && $0.contains("unauthorized: the bearer token is not valid") },
            "the wrong token's request is logged")
        let secrets = [AuthTests.reader, AuthTests.controller, wrong] + tickets.withLock { $0 }
        #expect(secrets.count == 5)
        for secret in secrets {
            let leaks = lines.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(secret) was logged: \(leaks)")
        }
    }
}
