import ProcessHarness

/// Latencies of one scenario in one round, and the spread of a figure over rounds.
struct LatencySample {
    var milliseconds: [Double]

    init(_ durations: [Duration]) {
        milliseconds = durations.map(\.milliseconds).sorted()
    }

    /// A sample of values already in ms.
    init(milliseconds: [Double]) {
        self.milliseconds = milliseconds.sorted()
    }

    /// The `fraction` quantile (nearest rank) in ms; 0 for no samples.
    func quantile(_ fraction: Double) -> Double {
        guard !milliseconds.isEmpty else { return 0 }
        let rank = Int((fraction * Double(milliseconds.count)).rounded(.up)) - 1
        return milliseconds[min(max(rank, 0), milliseconds.count - 1)]
    }

    var p50: Double { quantile(0.5) }
    var p95: Double { quantile(0.95) }
    var p99: Double { quantile(0.99) }
}

/// min, median and max of a figure measured once per round, rounded to `decimals` in JSON.
struct Spread: Encodable {
    var min: Double
    var median: Double
    var max: Double
    var decimals = 3

    init(_ values: [Double], decimals: Int = 3) {
        let sorted = values.sorted()
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        median =
            sorted.isEmpty
            ? 0 : sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        self.decimals = decimals
    }

    private enum CodingKeys: String, CodingKey { case min, median, max }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.rounded(min, decimals), forKey: .min)
        try container.encode(Self.rounded(median, decimals), forKey: .median)
        try container.encode(Self.rounded(max, decimals), forKey: .max)
    }

    /// `min / median / max`.
    var text: String { [min, median, max].map { format($0, decimals: decimals) }.joined(separator: " / ") }

    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}

func format(_ value: Double, decimals: Int = 3) -> String {
    let rounded = Spread.rounded(value, decimals)
    return decimals == 0 ? "\(Int(rounded))" : "\(rounded)"
}
