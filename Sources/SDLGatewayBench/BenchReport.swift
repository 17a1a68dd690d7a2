import Foundation

/// The figures of one run: per scenario and round the p50 and p99 (latency) or the rate
/// (throughput, putfile), the ratios of scenarios measured in the same round, fan-out and scale.
struct BenchReport {
    let rounds: Int
    let samples: Int
    let rate: Int
    let headUnit: String
    var p50: [String: [Double]] = [:]
    var p99: [String: [Double]] = [:]
    var p95: [String: [Double]] = [:]
    var restOverRaw: [Double] = []
    var wsOverRaw: [Double] = []
    var restOverHealth: [Double] = []
    var gatewayShareP50: [Double] = []
    /// The gateway's SDL client's round trip to the head unit within a REST Show (`Server-Timing`
    /// `headunit`): against `raw`, what the gateway's session costs over a direct one.
    var headUnitShareP50: [Double] = []
    /// Per round: the REST Show's `headunit` p50 minus the plain client's p50, in ms: what the
    /// gateway's head-unit round trip costs over the smallest possible client (issue goal ≤ 0.1 ms
    /// against SDL Core).
    var headUnitOverPlain: [Double] = []
    /// Per round: `raw` p50 over `plain` p50: what the project's SDL client adds to the round trip.
    var rawOverPlain: [Double] = []
    /// Per round: `relay` p50 over `raw` p50 (what any process between the HTTP client and the head
    /// unit costs on this machine), and `rest` p50 over `relay` p50 (what the gateway costs over
    /// that yardstick).
    var relayOverRaw: [Double] = []
    var restOverRelay: [Double] = []
    /// Why the plain client and the relay were not measured, if they were not.
    var plainSkipped: String?
    /// Requests per second with `inFlight` at once, per scenario and round.
    var throughput: [String: [Double]] = [:]
    var inFlight = 0
    /// Why throughput was not measured (a head-unit limit would cap it), if it was not.
    var throughputSkipped: String?
    /// MB/s of a `putFileSize`-byte file, per way and round.
    var putFile: [String: [Double]] = [:]
    var putFileSize = 0
    /// The gateway's peak resident memory (VmHWM) before and after the uploads.
    var putFilePeakKiB: (before: Int, after: Int) = (0, 0)
    var fanOut: [FanOutScenario.Figures] = []
    var audio: [AudioScenario.Figures] = []
    var video = VideoFigures()
    var fanOutSkipped: String?
    var scale: ScaleScenario.Figures?
    var scaleSkipped: String?
    var gatewayCPUSeconds = 0.0
    var gatewayResidentKiB = 0

    static let latencyScenarios = ["raw", "plain", "relay", "rest", "ws", "health"]
    static let throughputScenarios = ["raw", "rest", "health"]

    /// One round's samples; `headUnitShareP50` is that round's REST `Server-Timing: headunit` p50.
    mutating func add(_ figures: [String: LatencySample], headUnitShareP50: Double? = nil) {
        for (name, sample) in figures {
            p50[name, default: []].append(sample.p50)
            p95[name, default: []].append(sample.p95)
            p99[name, default: []].append(sample.p99)
        }
        if let headUnitShareP50, let plain = figures["plain"]?.p50 { headUnitOverPlain.append(headUnitShareP50 - plain) }
        if let ratio = Self.ratio(figures["raw"]?.p50, figures["plain"]?.p50) { rawOverPlain.append(ratio) }
        if let ratio = Self.ratio(figures["relay"]?.p50, figures["raw"]?.p50) { relayOverRaw.append(ratio) }
        if let ratio = Self.ratio(figures["rest"]?.p50, figures["relay"]?.p50) { restOverRelay.append(ratio) }
        if let ratio = Self.ratio(figures["rest"]?.p50, figures["raw"]?.p50) { restOverRaw.append(ratio) }
        if let ratio = Self.ratio(figures["ws"]?.p50, figures["raw"]?.p50) { wsOverRaw.append(ratio) }
        if let ratio = Self.ratio(figures["rest"]?.p50, figures["health"]?.p50) { restOverHealth.append(ratio) }
    }

    mutating func addThroughput(_ figures: [String: Double]) {
        for (name, value) in figures { throughput[name, default: []].append(value) }
    }

    mutating func addPutFile(_ figures: [String: Double]) {
        for (name, value) in figures { putFile[name, default: []].append(value) }
    }

    /// `numerator / denominator` of each round.
    func ratios(_ series: [String: [Double]], _ numerator: String, _ denominator: String) -> [Double] {
        zip(series[numerator] ?? [], series[denominator] ?? []).compactMap { Self.ratio($0, $1) }
    }

    /// The median of a ratio over rounds, to 3 decimals.
    static func ratio(_ values: [Double]) -> Double { Spread.rounded(Spread(values).median, 3) }

    static func ratio(_ numerator: Double?, _ denominator: Double?) -> Double? {
        guard let numerator, let denominator, denominator > 0 else { return nil }
        return numerator / denominator
    }

    var table: String {
        var lines = [
            "sdl-gateway-bench: \(rounds) rounds × \(samples) requests per latency scenario, head unit \(headUnit), \(Self.build) build",
            "latency paced at \(rate)/s per app (raw, rest, ws); the gateway's rate limit lifted (--rate-limit 0)",
            "",
            "latency   p50 ms (min / median / max)      p99 ms (min / median / max)",
        ]
        for name in Self.latencyScenarios {
            let padded = name.padding(toLength: 10, withPad: " ", startingAt: 0)
            let middle = Spread(p50[name] ?? []).text.padding(toLength: 33, withPad: " ", startingAt: 0)
            lines.append("\(padded)\(middle)\(Spread(p99[name] ?? []).text)")
        }
        lines += [
            "",
            "rest / raw p50:              \(Spread(restOverRaw).text)",
            "ws / raw p50:                \(Spread(wsOverRaw).text)",
            "rest / health p50:           \(Spread(restOverHealth).text)",
            "gateway share of REST p50:   \(Spread(gatewayShareP50).text) ms (Server-Timing gateway)",
            "head unit share of REST p50: \(Spread(headUnitShareP50).text) ms (Server-Timing headunit; compare raw p50)",
        ]
        if let plainSkipped {
            lines.append("plain: not measured: \(plainSkipped)")
        } else {
            lines += [
                "plain p50 / p95:             \(format(Spread(p50["plain"] ?? []).median)) / \(format(Spread(p95["plain"] ?? []).median)) ms (one blocking socket, no tasks)",
                "head unit share − plain p50: \(Spread(headUnitOverPlain).text) ms (goal against SDL Core: ≤ 0.1)",
                "raw / plain p50:             \(Spread(rawOverPlain).text)",
                "relay / raw p50:             \(Spread(relayOverRaw).text) (the smallest HTTP-to-SDL process: the floor of rest / raw)",
                "rest / relay p50:            \(Spread(restOverRelay).text)",
            ]
        }
        lines.append("")
        if let throughputSkipped {
            lines.append("throughput: not measured: \(throughputSkipped)")
        } else if !throughput.isEmpty {
            lines.append("throughput, \(inFlight) in flight, requests/s (min / median / max)")
            for name in Self.throughputScenarios {
                lines.append(
                    "\(name.padding(toLength: 10, withPad: " ", startingAt: 0))\(Spread(throughput[name] ?? [], decimals: 0).text)")
            }
            lines.append("rest / raw throughput:       \(Spread(ratios(throughput, "rest", "raw")).text)")
            lines.append("rest / health throughput:    \(Spread(ratios(throughput, "rest", "health")).text)")
            lines.append("")
        }
        if !putFile.isEmpty {
            lines += [
                "putfile, \(putFileSize / 1_000_000) MB, MB/s (min / median / max)",
                "raw       \(Spread(putFile["raw"] ?? []).text)",
                "rest      \(Spread(putFile["rest"] ?? []).text)",
                "rest / raw putfile:          \(Spread(ratios(putFile, "rest", "raw")).text)",
                "gateway peak resident (VmHWM): \(putFilePeakKiB.before) KiB before the uploads, \(putFilePeakKiB.after) KiB after",
                "",
            ]
        }
        if let first = audio.first {
            lines.append("audio, \(format(first.seconds, decimals: 1)) s of 16 kHz 16-bit PCM to \(first.clients) WebSocket clients")
            lines.append("mode      PCM bytes/s (all clients)   wire bytes/s   chunks (fewest a client got)   same bytes as last.wav")
            for figures in audio {
                let mode = figures.mode.padding(toLength: 10, withPad: " ", startingAt: 0)
                let pcm = format(figures.pcmBytesPerSecond, decimals: 0).padding(toLength: 28, withPad: " ", startingAt: 0)
                let wire = format(figures.wireBytesPerSecond, decimals: 0).padding(toLength: 15, withPad: " ", startingAt: 0)
                let chunks = "\(figures.chunks) (\(figures.fewestChunks))".padding(toLength: 31, withPad: " ", startingAt: 0)
                lines.append("\(mode)\(pcm)\(wire)\(chunks)\(figures.intact ? "yes" : "NO")")
            }
            lines.append("")
        }
        lines += video.lines
        if let fanOutSkipped {
            lines.append("fanout: not measured: \(fanOutSkipped)")
        } else if !fanOut.isEmpty {
            lines.append("fanout    delivered   p50 ms   p99 ms   gateway CPU s per 1,000 events")
            for figures in fanOut {
                let label = "\(figures.clients)".padding(toLength: 10, withPad: " ", startingAt: 0)
                let fraction = "\(format(figures.deliveredFraction * 100, decimals: 3)) %".padding(
                    toLength: 12, withPad: " ", startingAt: 0)
                let p50 = format(figures.latency.p50).padding(toLength: 9, withPad: " ", startingAt: 0)
                let p99 = format(figures.latency.p99).padding(toLength: 9, withPad: " ", startingAt: 0)
                lines.append("\(label)\(fraction)\(p50)\(p99)\(format(figures.cpuPerThousand, decimals: 4))")
            }
        }
        if let scale {
            lines.append(
                "scale: \(scale.sessions) sessions, \(format(scale.perSessionKiB, decimals: 1)) KiB each; \(scale.clients) idle WebSocket clients, \(format(scale.perClientKiB, decimals: 1)) KiB each"
            )
        } else if let scaleSkipped {
            lines.append("scale: not measured: \(scaleSkipped)")
        }
        lines.append("gateway CPU: \(format(gatewayCPUSeconds, decimals: 2)) s over the run, resident \(gatewayResidentKiB) KiB at the end")
        return lines.joined(separator: "\n")
    }

    static var build: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    private struct FanOutDocument: Encodable {
        var clients: Int
        var sent: Int
        var delivered: Int
        var deliveredFraction: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var gatewayCPUSecondsPer1000: Double
    }

    private struct AudioDocument: Encodable {
        var mode: String
        var clients: Int
        var seconds: Double
        var wallSeconds: Double
        var chunks: Int
        var fewestChunks: Int
        var pcmBytesPerSecond: Double
        var wireBytesPerSecond: Double
        var intact: Bool
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
        var ws_over_raw_p50: Double
        var rest_over_health_p50: Double
        var gateway_share_p50_ms: Double
        var headunit_share_p50_ms: Double
        var plain_p50_ms: Double?
        var plain_p95_ms: Double?
        var headunit_over_plain_p50_ms: Double?
        var raw_over_plain_p50: Double?
        var relay_over_raw_p50: Double?
        var rest_over_relay_p50: Double?
        var inFlight: Int
        var throughputPerSecond: [String: Spread]
        var rest_over_raw_throughput: Double?
        var rest_over_health_throughput: Double?
        var putFileBytes: Int
        var putFileMBPerSecond: [String: Spread]
        var putfile_rest_over_raw: Double?
        var putFilePeakResidentKiB: [String: Int]
        var fanout: [FanOutDocument]
        var audio: [AudioDocument]
        var video: VideoFigures.Document?
        var video_ws_over_raw: Double?
        var video_post_over_raw: Double?
        var video_latency_ws_over_raw_p50: Double?
        var scale_sessions: Int?
        var scale_per_session_kib: Double?
        var scale_clients: Int?
        var scale_per_client_kib: Double?
        var gatewayCPUSeconds: Double
        var gatewayResidentKiB: Int
        var notMeasured: [String]
    }

    var json: String {
        var notMeasured: [String] = []
        if let throughputSkipped { notMeasured.append("throughput: \(throughputSkipped)") }
        if let plainSkipped { notMeasured.append("plain, relay: \(plainSkipped)") }
        let plainP50 = p50["plain"].map { Spread($0).median }
        let plainP95 = p95["plain"].map { Spread($0).median }
        if let fanOutSkipped { notMeasured.append("fanout: \(fanOutSkipped)") }
        if let scaleSkipped { notMeasured.append("scale: \(scaleSkipped)") }
        if let skipped = video.skipped { notMeasured.append("video: \(skipped)") }
        let putFileRatios = ratios(putFile, "rest", "raw")
        let document = Document(
            rounds: rounds, samples: samples, ratePerSecond: rate, headUnit: headUnit, build: Self.build,
            processors: ProcessInfo.processInfo.activeProcessorCount,
            p50Milliseconds: p50.mapValues { Spread($0) }, p99Milliseconds: p99.mapValues { Spread($0) },
            rest_over_raw_p50: Self.ratio(restOverRaw), ws_over_raw_p50: Self.ratio(wsOverRaw),
            rest_over_health_p50: Self.ratio(restOverHealth),
            gateway_share_p50_ms: Spread(gatewayShareP50).median, headunit_share_p50_ms: Spread(headUnitShareP50).median,
            plain_p50_ms: plainP50.map { Spread.rounded($0, 3) }, plain_p95_ms: plainP95.map { Spread.rounded($0, 3) },
            headunit_over_plain_p50_ms: headUnitOverPlain.isEmpty ? nil : Self.ratio(headUnitOverPlain),
            raw_over_plain_p50: rawOverPlain.isEmpty ? nil : Self.ratio(rawOverPlain),
            relay_over_raw_p50: relayOverRaw.isEmpty ? nil : Self.ratio(relayOverRaw),
            rest_over_relay_p50: restOverRelay.isEmpty ? nil : Self.ratio(restOverRelay),
            inFlight: inFlight, throughputPerSecond: throughput.mapValues { Spread($0, decimals: 0) },
            rest_over_raw_throughput: throughputSkipped == nil ? Self.ratio(ratios(throughput, "rest", "raw")) : nil,
            rest_over_health_throughput: throughputSkipped == nil ? Self.ratio(ratios(throughput, "rest", "health")) : nil,
            putFileBytes: putFileSize, putFileMBPerSecond: putFile.mapValues { Spread($0) },
            putfile_rest_over_raw: putFileRatios.isEmpty ? nil : Self.ratio(putFileRatios),
            putFilePeakResidentKiB: ["before": putFilePeakKiB.before, "after": putFilePeakKiB.after],
            fanout: fanOut.map {
                FanOutDocument(
                    clients: $0.clients, sent: $0.sent, delivered: $0.delivered, deliveredFraction: Spread.rounded($0.deliveredFraction, 5),
                    p50Milliseconds: Spread.rounded($0.latency.p50, 3), p99Milliseconds: Spread.rounded($0.latency.p99, 3),
                    gatewayCPUSecondsPer1000: Spread.rounded($0.cpuPerThousand, 5)
                )
            },
            audio: audio.map {
                AudioDocument(
                    mode: $0.mode, clients: $0.clients, seconds: $0.seconds, wallSeconds: Spread.rounded($0.wallSeconds, 3),
                    chunks: $0.chunks,
                    fewestChunks: $0.fewestChunks, pcmBytesPerSecond: Spread.rounded($0.pcmBytesPerSecond, 0),
                    wireBytesPerSecond: Spread.rounded($0.wireBytesPerSecond, 0), intact: $0.intact
                )
            },
            video: video.document, video_ws_over_raw: VideoFigures.median(video.throughputRatios("ws")),
            video_post_over_raw: VideoFigures.median(video.throughputRatios("post")),
            video_latency_ws_over_raw_p50: VideoFigures.median(video.latencyRatios),
            scale_sessions: scale?.sessions, scale_per_session_kib: scale.map { Spread.rounded($0.perSessionKiB, 1) },
            scale_clients: scale?.clients, scale_per_client_kib: scale.map { Spread.rounded($0.perClientKiB, 1) },
            gatewayCPUSeconds: Spread.rounded(gatewayCPUSeconds, 3), gatewayResidentKiB: gatewayResidentKiB,
            notMeasured: notMeasured
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
