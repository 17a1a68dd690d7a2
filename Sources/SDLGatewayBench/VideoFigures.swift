import Foundation

/// What the video scenario measured: MB/s per way and round, latency samples per way and round.
struct VideoFigures {
    /// Bytes and frames of each throughput measurement.
    var bytes = 0
    var frames = 0
    /// The latency runs: frames of `latencyFrameSize` bytes, `latencyRate` a second, `latencyFrames` timed.
    var latencyFrameSize = 0
    var latencyRate = 0
    var latencyFrames = 0
    /// MB/s, per way (`raw`, `ws`, `post`) and round.
    var throughput: [String: [Double]] = [:]
    /// Per way (`raw`, `ws`) and round.
    var latency: [String: [LatencySample]] = [:]
    /// Why it was not measured, if it was not.
    var skipped: String?

    static let ways = ["raw", "ws", "post"]

    /// `numerator / denominator` MB/s of each round.
    func throughputRatios(_ numerator: String) -> [Double] {
        zip(throughput[numerator] ?? [], throughput["raw"] ?? []).compactMap { BenchReport.ratio($0, $1) }
    }

    /// ws p50 / raw p50 of each round.
    var latencyRatios: [Double] {
        zip(latency["ws"] ?? [], latency["raw"] ?? []).compactMap { BenchReport.ratio($0.p50, $1.p50) }
    }

    /// min, p50, p95 and max of a way's delays, each over rounds.
    func delays(_ way: String) -> [String: Spread] {
        let samples = latency[way] ?? []
        return [
            "min": Spread(samples.map { $0.milliseconds.first ?? 0 }), "p50": Spread(samples.map(\.p50)),
            "p95": Spread(samples.map { $0.quantile(0.95) }), "max": Spread(samples.map { $0.milliseconds.last ?? 0 }),
        ]
    }

    var lines: [String] {
        if let skipped { return ["video: not measured: \(skipped)", ""] }
        guard !throughput.isEmpty else { return [] }
        var lines = [
            "video, \(format(Double(bytes) / 1e6, decimals: 1)) MB of H.264-like frames (\(frames) frames) per way and round, MB/s (min / median / max)"
        ]
        for way in Self.ways {
            lines.append("\(way.padding(toLength: 10, withPad: " ", startingAt: 0))\(Spread(throughput[way] ?? []).text)")
        }
        lines += [
            "ws / raw video:              \(Spread(throughputRatios("ws")).text)",
            "post / raw video:            \(Spread(throughputRatios("post")).text)",
            "video latency, \(latencyFrames) frames of \(latencyFrameSize / 1024) KiB at \(latencyRate)/s to the head unit's last byte, ms",
            "          min (min / median / max)   p50                        p95                        max",
        ]
        for way in ["raw", "ws"] {
            let spreads = delays(way)
            let columns = ["min", "p50", "p95"].map { (spreads[$0]?.text ?? "").padding(toLength: 27, withPad: " ", startingAt: 0) }
            lines.append(way.padding(toLength: 10, withPad: " ", startingAt: 0) + columns.joined() + (spreads["max"]?.text ?? ""))
        }
        lines += ["ws / raw video latency p50:  \(Spread(latencyRatios).text)", ""]
        return lines
    }

    struct Document: Encodable {
        var bytes: Int
        var frames: Int
        var MBPerSecond: [String: Spread]
        var latencyFrameBytes: Int
        var latencyFramesPerSecond: Int
        var latencyFrames: Int
        var latencyMilliseconds: [String: [String: Spread]]
    }

    var document: Document? {
        guard !throughput.isEmpty else { return nil }
        return Document(
            bytes: bytes, frames: frames, MBPerSecond: throughput.mapValues { Spread($0) }, latencyFrameBytes: latencyFrameSize,
            latencyFramesPerSecond: latencyRate, latencyFrames: latencyFrames,
            latencyMilliseconds: Dictionary(uniqueKeysWithValues: latency.keys.map { ($0, delays($0)) }))
    }

    /// The median over rounds of a ratio, nil when not measured.
    static func median(_ ratios: [Double]) -> Double? { ratios.isEmpty ? nil : BenchReport.ratio(ratios) }
}
