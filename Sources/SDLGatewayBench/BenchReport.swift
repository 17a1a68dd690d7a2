import Foundation

/// The figures of one run: per scenario and round the p50 and p99, and the ratios of scenarios
/// measured in the same round.
struct BenchReport {
    let rounds: Int
    let samples: Int
    let rate: Int
    let headUnit: String
    var p50: [String: [Double]] = [:]
    var p99: [String: [Double]] = [:]
    var restOverRaw: [Double] = []
    var restOverHealth: [Double] = []
    var gatewayShareP50: [Double] = []
    /// The gateway's SDL client's round trip to the head unit within a REST Show (`Server-Timing`
    /// `headunit`): against `raw`, what the gateway's session costs over a direct one.
    var headUnitShareP50: [Double] = []
    var gatewayCPUSeconds = 0.0
    var gatewayResidentKiB = 0

    static let scenarios = ["raw", "rest", "health"]

    mutating func add(_ figures: [String: LatencySample]) {
        for (name, sample) in figures {
            p50[name, default: []].append(sample.p50)
            p99[name, default: []].append(sample.p99)
        }
        if let raw = figures["raw"]?.p50, let rest = figures["rest"]?.p50, raw > 0 { restOverRaw.append(rest / raw) }
        if let health = figures["health"]?.p50, let rest = figures["rest"]?.p50, health > 0 { restOverHealth.append(rest / health) }
    }

    var table: String {
        var lines = [
            "sdl-gateway-bench: \(rounds) rounds × \(samples) requests per scenario, head unit \(headUnit), \(Self.build) build",
            "paced at \(rate)/s per app (raw, rest); the gateway's rate limit lifted (--rate-limit 0)",
            "",
            "scenario  p50 ms (min / median / max)      p99 ms (min / median / max)",
        ]
        for name in Self.scenarios {
            let padded = name.padding(toLength: 10, withPad: " ", startingAt: 0)
            let middle = Spread(p50[name] ?? []).text.padding(toLength: 33, withPad: " ", startingAt: 0)
            lines.append("\(padded)\(middle)\(Spread(p99[name] ?? []).text)")
        }
        lines += [
            "",
            "rest / raw p50:            \(Spread(restOverRaw).text)",
            "rest / health p50:         \(Spread(restOverHealth).text)",
            "gateway share of REST p50: \(Spread(gatewayShareP50).text) ms (Server-Timing gateway)",
            "head unit share of REST p50: \(Spread(headUnitShareP50).text) ms (Server-Timing headunit; compare raw p50)",
            "gateway CPU: \(format(gatewayCPUSeconds, decimals: 2)) s, resident \(gatewayResidentKiB) KiB",
            "not measured yet: ws, throughput (64 in flight), fanout, scale, putfile",
        ]
        return lines.joined(separator: "\n")
    }

    static var build: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    private struct Document: Encodable {
        var rounds: Int
        var samples: Int
        var ratePerSecond: Int
        var headUnit: String
        var build: String
        var processors: Int
        var p50Milliseconds: [String: Spread]
        var p99Milliseconds: [String: Spread]
        var rest_over_raw_p50: Double
        var rest_over_health_p50: Double
        var gateway_share_p50_ms: Double
        var headunit_share_p50_ms: Double
        var gatewayCPUSeconds: Double
        var gatewayResidentKiB: Int
        var notMeasured: [String]
    }

    var json: String {
        let document = Document(
            rounds: rounds, samples: samples, ratePerSecond: rate, headUnit: headUnit, build: Self.build,
            processors: ProcessInfo.processInfo.activeProcessorCount,
            p50Milliseconds: p50.mapValues(Spread.init), p99Milliseconds: p99.mapValues(Spread.init),
            rest_over_raw_p50: Spread(restOverRaw).median, rest_over_health_p50: Spread(restOverHealth).median,
            gateway_share_p50_ms: Spread(gatewayShareP50).median, headunit_share_p50_ms: Spread(headUnitShareP50).median, gatewayCPUSeconds: (gatewayCPUSeconds * 1000).rounded() / 1000, gatewayResidentKiB: gatewayResidentKiB,
            notMeasured: ["ws_over_raw_p50", "rest_over_raw_throughput", "rest_over_health_throughput", "fanout", "scale", "putfile_rest_over_raw"]
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
