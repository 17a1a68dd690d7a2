import NIOCore
import NIOEmbedded
import NIOHTTP1
import ProcessHarness
import Testing

@testable import SDLGatewayBench

@Suite("sdl-gateway-bench: its figures")
struct BenchFiguresTests {
    @Test("Quantiles by nearest rank, in ms")
    func quantiles() {
        let sample = LatencySample((1...100).reversed().map { Duration.milliseconds($0) })
        #expect(sample.p50 == 50)
        #expect(sample.p99 == 99)
        #expect(sample.quantile(1) == 100)
        #expect(LatencySample([.microseconds(1500)]).p99 == 1.5)
        #expect(LatencySample([]).p50 == 0)
    }

    @Test("min / median / max over rounds (an even count takes the middle two)")
    func spread() {
        let odd = Spread([3, 1, 2])
        #expect(odd.min == 1 && odd.median == 2 && odd.max == 3)
        #expect(Spread([4, 1, 2, 3]).median == 2.5)
        #expect(Spread([]).median == 0)
    }

    @Test("The gateway's parts of an RPC come from Server-Timing (gateway, headunit)")
    func serverTiming() {
        #expect(LatencyScenarios.serverTiming(["Server-Timing": "gateway;dur=0.113, headunit;dur=0.93"], "gateway") == 0.113)
        #expect(LatencyScenarios.serverTiming(["Server-Timing": "gateway;dur=0.113, headunit;dur=0.93"], "headunit") == 0.93)
        #expect(LatencyScenarios.serverTiming(["Server-Timing": "headunit;dur=0.93"], "gateway") == nil)
        #expect(LatencyScenarios.serverTiming([:], "gateway") == nil)
    }

    @Test("Ratios are taken within each round; the report's JSON holds them and says what was not measured and why")
    func report() {
        var report = BenchReport(rounds: 2, samples: 3, rate: 80, headUnit: "simulator")
        report.add([
            "raw": LatencySample([.milliseconds(1)]), "rest": LatencySample([.milliseconds(2)]), "ws": LatencySample([.microseconds(1500)]),
            "health": LatencySample([.milliseconds(1)]),
        ])
        report.add([
            "raw": LatencySample([.milliseconds(2)]), "rest": LatencySample([.milliseconds(3)]), "ws": LatencySample([.milliseconds(2)]),
            "health": LatencySample([.milliseconds(1)]),
        ])
        #expect(report.restOverRaw == [2, 1.5])
        #expect(report.wsOverRaw == [1.5, 1])
        report.addThroughput(["raw": 1000, "rest": 800, "health": 4000])
        report.addThroughput(["raw": 1000, "rest": 600, "health": 3000])
        #expect(report.ratios(report.throughput, "rest", "health") == [0.2, 0.2])
        report.scaleSkipped = "the open-file limit is 1024"
        let json = report.json
        #expect(json.contains(#""rest_over_raw_p50":1.75"#))
        #expect(json.contains(#""ws_over_raw_p50":1.25"#))
        #expect(json.contains(#""rest_over_raw_throughput":0.7"#))
        #expect(json.contains(#""rest_over_health_throughput":0.2"#))
        #expect(!json.contains("putfile_rest_over_raw"), "no upload was timed: no ratio, rather than 0")
        #expect(json.contains("scale: the open-file limit is 1024"))
        #expect(report.table.contains("rest / raw p50:              1.5 / 1.75 / 2.0"))
        #expect(report.table.contains("raw       1000 / 1000 / 1000"))
    }

    @Test("Fan-out figures: the delivered fraction and CPU per 1,000 events; the odometer read from an event")
    func fanOut() {
        let figures = FanOutScenario.Figures(
            clients: 100, sent: 50, delivered: 4990, latency: LatencySample(milliseconds: [1, 2, 3]), gatewayCPUSeconds: 0.499)
        #expect(figures.deliveredFraction == 0.998)
        #expect(abs(figures.cpuPerThousand - 0.1) < 1e-9)
        #expect(FanOutReceiver.odometer(ByteBuffer(string: #"{"seq":4,"type":"vehicleData","data":{"odometer":1000123}}"#)) == 1_000_123)
        #expect(FanOutReceiver.odometer(ByteBuffer(string: #"{"type":"vehicleData","data":{"speed":3}}"#)) == nil)
        #expect(FanOutReceiver.odometer(ByteBuffer(string: #"{"odometer":}"#)) == nil)
    }

    @Test("The fan-out client upgrades, reads frames split anywhere, answers a ping with a masked pong, notes the measured values")
    func fanOutReceiver() throws {
        let (channel, receiver) = try Self.connectedReceiver(firstValue: 100, stopValue: 103)
        let request = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(String(buffer: request).hasPrefix("GET /v1/apps/a/events HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"))

        func text(_ json: String) -> [UInt8] { [0x81, UInt8(json.utf8.count)] + Array(json.utf8) }
        var input = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n".utf8)
        input += text(#"{"data":{"odometer":99}}"#)  // primes
        input += [0x89, 0x02, 0x68, 0x69]  // ping "hi"
        input += text(#"{"data":{"odometer":100}}"#) + text(#"{"data":{"odometer":102}}"#) + text(#"{"data":{"odometer":103}}"#)
        // Delivered in pieces of 7 bytes: headers and payloads cut anywhere.
        for start in stride(from: 0, to: input.count, by: 7) {
            try channel.writeInbound(ByteBuffer(bytes: input[start..<min(start + 7, input.count)]))
        }
        #expect(throws: Never.self) { try receiver.upgraded.futureResult.wait() }
        #expect(throws: Never.self) { try receiver.primed.futureResult.wait() }
        #expect(throws: Never.self) { try receiver.finished.futureResult.wait() }
        #expect(receiver.receipts.map(\.0) == [100, 102])
        let pong = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(Array(pong.readableBytesView) == [0x8A, 0x82, 0x5A, 0x3C, 0x96, 0x0F, 0x68 ^ 0x5A, 0x69 ^ 0x3C])
        _ = try channel.finish()
    }

    @Test("A refused upgrade fails the fan-out client")
    func fanOutRefused() throws {
        let (channel, receiver) = try Self.connectedReceiver(firstValue: 0, stopValue: 1)
        try channel.writeInbound(ByteBuffer(string: "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"))
        #expect(throws: BenchFailure.self) { try receiver.upgraded.futureResult.wait() }
        #expect(throws: BenchFailure.self) { try receiver.finished.futureResult.wait() }
    }

    /// A fan-out client of `/v1/apps/a/events` on an embedded channel, connected (its upgrade written).
    static func connectedReceiver(firstValue: Int, stopValue: Int) throws -> (EmbeddedChannel, FanOutReceiver) {
        let channel = EmbeddedChannel()
        let receiver = FanOutReceiver(
            host: "127.0.0.1", path: "/v1/apps/a/events", firstValue: firstValue, stopValue: stopValue, eventLoop: channel.eventLoop)
        try channel.pipeline.syncOperations.addHandler(receiver)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, receiver)
    }
}
