import Foundation
@testable import Gateway
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Metrics
import NIOCore
import Prometheus
import SDLClient
import SDLProtocol
import SDLSpec
import Testing

@Suite("Metrics: /metrics in Prometheus text", .timeLimit(.minutes(1)))
struct MetricsTests {
    typealias H = GatewayHarness

    @Test("The result label is a result code of the spec, or OTHER: a head unit cannot grow /metrics with codes it makes up")
    func resultLabelIsBounded() {
        #expect(RPCExecutor.resultLabel("SUCCESS", catalog: .builtIn) == "SUCCESS")
        #expect(RPCExecutor.resultLabel("REJECTED", catalog: .builtIn) == "REJECTED")
        #expect(RPCExecutor.resultLabel("MADE_UP_\(UInt64.random(in: 0...UInt64.max))", catalog: .builtIn) == "OTHER")
        #expect(RPCExecutor.resultLabel(nil, catalog: .builtIn) == "GENERIC_ERROR")
    }

    @Test("Records a capture tap drops (serve --record, the disk slower than the link) count in sdl_gateway_capture_records_dropped_total")
    func captureRecordsDropped() {
        let registry = PrometheusCollectorRegistry()
        withMetricsFactory(PrometheusMetricsFactory(registry: registry)) {
            let recording = GatewayRecording(directory: FileManager.default.temporaryDirectory.path, limits: .init(records: 2, bytes: 1000))
            let target = recording.start(app: "demo", sdlAppID: "demo-app", headUnit: "tcp://127.0.0.1:12345")
            for byte in 0..<5 as Range<UInt8> { target.tap.record(.appToHeadUnit, ByteBuffer(bytes: [byte])) }
            target.tap.finish()
            target.tap.record(.appToHeadUnit, ByteBuffer(bytes: [9]))  // after finish: ignored, not dropped
            #expect(target.tap.droppedCount == 3)
            #expect(registry.emitToString().contains("\(GatewayRecording.droppedRecordsMetric) 3"))
        }
    }

    @Test(
        "RPC latency by function and result code, sessions by state, events, requests by route (a task-local factory, no global bootstrap)")
    func prometheus() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withMetricsFactory(PrometheusMetricsFactory(registry: registry)) {
            try await H.withGateway(prometheus: registry) { client, _, _ in
                try await H.createApp(client)
                try await client.execute(
                    uri: "/v1/apps/demo/rpc/Show", method: .post, headers: H.jsonHeaders, body: H.json(["mainField1": "m"])
                ) { _ in }
                try await client.execute(
                    uri: "/v1/apps/demo/rpc/AddCommand", method: .post, headers: H.jsonHeaders,
                    body: H.json(["cmdID": 1, "menuParams": ["menuName": "A"]])
                ) { _ in }
                try await client.execute(
                    uri: "/v1/apps/demo/rpc/AddCommand", method: .post, headers: H.jsonHeaders,
                    body: H.json(["cmdID": 1, "menuParams": ["menuName": "B"]])
                ) { _ in }
                try await client.execute(uri: "/metrics", method: .get) { response in
                    let text = String(buffer: response.body)
                    #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                    #expect(text.contains(#"sdl_gateway_rpc_duration_seconds_count{function="Show",result="SUCCESS"} 1"#))
                    #expect(text.contains(#"sdl_gateway_rpc_duration_seconds_count{function="AddCommand",result="INVALID_ID"} 1"#))
                    #expect(text.contains(#"sdl_gateway_sessions{state="registered"} 1"#))
                    #expect(text.contains("sdl_gateway_events_published_total"))
                    #expect(text.contains("hb_requests"))
                }
            }
        }
    }
}
