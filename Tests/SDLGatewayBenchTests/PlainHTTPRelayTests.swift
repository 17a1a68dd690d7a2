import HeadUnitSimulator
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ProcessHarness
import SDLClient
import SDLProtocol
import Testing

@testable import SDLGatewayBench

/// The bench's relay: its request reader on byte vectors, and the whole relay against the
/// simulator in this process (the relay blocks its thread, so it runs on NIO's thread pool).
@Suite("sdl-gateway-bench: the plain HTTP relay", .timeLimit(.minutes(1)))
struct PlainHTTPRelayTests {
    @Test("A request with a body is taken whole, and only once all of it is there; the next stays buffered")
    func readsWholeRequests() {
        let first = "POST /rpc/Show HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
        var buffer = ByteBuffer(string: String(first.dropLast()))
        #expect(PlainHTTPRelay.nextRequest(in: &buffer) == .incomplete)
        buffer = ByteBuffer(string: first + "GET /rpc/Alert HTTP/1.1\r\n\r\n")
        #expect(PlainHTTPRelay.nextRequest(in: &buffer) == .request(method: "POST", path: "/rpc/Show", body: ByteBuffer(string: "{}")))
        #expect(PlainHTTPRelay.nextRequest(in: &buffer) == .request(method: "GET", path: "/rpc/Alert", body: ByteBuffer()))
        #expect(PlainHTTPRelay.nextRequest(in: &buffer) == .incomplete)
        #expect(buffer.readableBytes == 0)
    }

    @Test(
        "What it does not read is refused with a status, not waited for",
        arguments: [
            ("GARBAGE\r\n\r\n", 400),
            ("POST /rpc/Show HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
            ("POST /rpc/Show HTTP/1.1\r\nno colon\r\n\r\n", 400),
            ("POST /rpc/Show HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
            ("POST /rpc/Show HTTP/1.1\r\nContent-Length: 65537\r\n\r\n", 413),
            ("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 9_000), 431),
        ]
    )
    func refuses(request: String, status: Int) {
        var buffer = ByteBuffer(string: request)
        guard case .refused(let refused, _) = PlainHTTPRelay.nextRequest(in: &buffer) else {
            Issue.record("not refused: \(request.prefix(40))")
            return
        }
        #expect(refused == status)
    }

    @Test("The report: relay over raw and rest over relay, per round, in the table and the BENCH line")
    func report() {
        var report = BenchReport(rounds: 1, samples: 1, rate: 80, headUnit: "simulator")
        report.add([
            "raw": LatencySample([.milliseconds(1)]), "relay": LatencySample([.microseconds(1300)]),
            "rest": LatencySample([.microseconds(1950)]),
        ])
        #expect(report.json.contains(#""relay_over_raw_p50":1.3"#))
        #expect(report.json.contains(#""rest_over_relay_p50":1.5"#))
        #expect(report.table.contains("relay / raw p50:"))
    }

    @Test("Relays a Show to the head unit and answers its response; other paths and bodies get 404 and 400")
    func relaysShow() async throws {
        var logger = Logger(label: "relay-test")
        logger.logLevel = .error
        let simulator = SimulatedHeadUnit(
            configuration: HeadUnitConfiguration(autoActivate: true, autoActivateDelay: .milliseconds(10)), logger: logger)
        let bound = try await simulator.bind([.tcp(host: "127.0.0.1", port: 0)])
        let headUnitPort = try #require(bound.ports.first)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run(bound) }
            // Registered and listening before the client connects; then it serves that one connection.
            let relay = try await NIOThreadPool.singleton.runIfActive {
                let client = try PlainSDLClient(host: "127.0.0.1", port: headUnitPort, timeout: .seconds(30))
                try client.register(SDLAppConfiguration(appName: "Relay", appID: "relay-1"))
                return RelayBox(try PlainHTTPRelay(client: client, idleTimeout: .seconds(30)))
            }
            async let served: Void = NIOThreadPool.singleton.runIfActive { relay.relay.serve(connections: 1) }
            let http = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: relay.relay.port)
            let (show, unknown, notJSON, elsewhere) = try await http.run { send in
                (
                    try await send(.POST, "/rpc/Show", ByteBuffer(string: #"{"mainField1":"relayed"}"#)),
                    try await send(.POST, "/rpc/NoSuchFunction", ByteBuffer(string: "{}")),
                    try await send(.POST, "/rpc/Show", ByteBuffer(string: "[1]")),
                    try await send(.GET, "/v1/health", nil)
                )
            }
            try await served
            #expect(show.status == 200)
            #expect((try SDLJSON.parse(show.body))["resultCode"]?.stringValue == "SUCCESS")
            #expect(unknown.status == 404)
            #expect(notJSON.status == 400)
            #expect(elsewhere.status == 404)
            relay.relay.client.close()
            group.cancelAll()
        }
    }
}

/// The relay handed from the pool's thread to the test and back; one thread uses it at a time
/// (made on one, served on another after the first returned, closed after serving returned).
private final class RelayBox: @unchecked Sendable {
    let relay: PlainHTTPRelay
    init(_ relay: PlainHTTPRelay) { self.relay = relay }
}
