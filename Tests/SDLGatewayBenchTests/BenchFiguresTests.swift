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

    @Test("Ratios are taken within each round; the report's JSON holds them and says what is not measured")
    func report() {
        var report = BenchReport(rounds: 2, samples: 3, rate: 80, headUnit: "simulator")
        report.add(["raw": LatencySample([.milliseconds(1)]), "rest": LatencySample([.milliseconds(2)]), "health": LatencySample([.milliseconds(1)])])
        report.add(["raw": LatencySample([.milliseconds(2)]), "rest": LatencySample([.milliseconds(3)]), "health": LatencySample([.milliseconds(1)])])
        #expect(report.restOverRaw == [2, 1.5])
        #expect(report.json.contains(#""rest_over_raw_p50":1.75"#))
        #expect(report.json.contains("putfile_rest_over_raw"))
        #expect(report.table.contains("rest / raw p50:            1.5 / 1.75 / 2.0"))
    }
}
