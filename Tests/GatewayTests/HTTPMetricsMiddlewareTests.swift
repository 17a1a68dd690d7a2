import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Metrics
import NIOCore
import Prometheus
import Testing

@testable import Gateway

/// ``HTTPMetricsMiddleware``: Hummingbird's request metrics, recorded when a body of known length
/// is returned, after a body of unknown length was written.
@Suite("Metrics: the HTTP request metrics", .timeLimit(.minutes(1)))
struct HTTPMetricsMiddlewareTests {
    @Test("A JSON answer, a stream, an error and an unknown method are each counted once, by route, method and status")
    func counts() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withMetricsFactory(PrometheusMetricsFactory(registry: registry)) {
            let router = Router()
            router.add(middleware: HTTPMetricsMiddleware())
            router.get("json") { _, _ in #"{"ok":true}"# }
            router.get("stream") { _, _ in
                Response(
                    status: .ok,
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: "data: 1\n\n"))
                        try await writer.write(ByteBuffer(string: "data: 2\n\n"))
                        try await writer.finish(nil)
                    })
            }
            router.get("missing") { _, _ -> String in throw HTTPError(.notFound) }
            router.on("json", method: HTTPRequest.Method("BREW")!) { _, _ in "brewed" }
            let app = Application(router: router)
            try await app.test(.router) { client in
                try await client.execute(uri: "/json", method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/json", method: .get) { #expect($0.status == .ok) }
                try await client.execute(uri: "/stream", method: .get) { response in
                    #expect(String(buffer: response.body) == "data: 1\n\ndata: 2\n\n")
                }
                try await client.execute(uri: "/missing", method: .get) { #expect($0.status == .notFound) }
                try await client.execute(uri: "/json", method: HTTPRequest.Method("BREW")!) { #expect($0.status == .ok) }
            }
            let text = registry.emitToString()
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            func value(_ name: String, _ labels: [String]) -> String? {
                lines.first { line in line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) } }?.split(separator: " ").last
                    .map(String.init)
            }
            #expect(
                value("hb_requests", [#"http_route="/json""#, #"http_request_method="GET""#, #"http_response_status_code="200""#]) == "2")
            #expect(value("hb_requests", [#"http_route="/stream""#, #"http_response_status_code="200""#]) == "1")
            #expect(value("hb_requests", [#"http_route="/missing""#, #"http_response_status_code="404""#]) == "1")
            #expect(value("hb_request_errors", [#"http_route="/missing""#, #"error_type="404""#]) == "1")
            #expect(value("hb_requests", [#"http_route="/json""#, #"http_request_method="_OTHER""#]) == "1")
            #expect(!text.contains("BREW"), "a method outside HTTP's own is not a label value")
            #expect(value("http_server_request_duration_count", [#"http_route="/stream""#]) == "1")
            for method in ["GET", "_OTHER"] {
                #expect(value("http_server_active_requests", [#"http_request_method="\#(method)""#]) == "0.0")
            }
        }
    }
}
