import NIOHTTP1
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
        report.add(["raw": LatencySample([.milliseconds(1)]), "rest": LatencySample([.milliseconds(2)]), "ws": LatencySample([.microseconds(1500)]), "health": LatencySample([.milliseconds(1)])])
        report.add(["raw": LatencySample([.milliseconds(2)]), "rest": LatencySample([.milliseconds(3)]), "ws": LatencySample([.milliseconds(2)]), "health": LatencySample([.milliseconds(1)])])
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
        let figures = FanOutScenario.Figures(clients: 100, sent: 50, delivered: 4990, latency: LatencySample(milliseconds: [1, 2, 3]), gatewayCPUSeconds: 0.499)
        #expect(figures.deliveredFraction == 0.998)
        #expect(abs(figures.cpuPerThousand - 0.1) < 1e-9)
        #expect(FanOutScenario.odometer(#"{"seq":4,"type":"vehicleData","data":{"odometer":1000123}}"#) == 1_000_123)
        #expect(FanOutScenario.odometer(#"{"type":"vehicleData","data":{"speed":3}}"#) == nil)
    }
}
