import Foundation
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLClient
import SDLProtocol
import SDLTransport

/// What a run measures and how much of it.
struct BenchPlan: Sendable {
    var rounds: Int
    var samples: Int
    var rate: Int
    var inFlight: Int
    var fanOutSeconds: Int
    var fanOutClients: [Int]
    var scaleSessions: Int
    var scaleClients: Int
    /// Seconds of audio recorded in the audio scenario, and its clients.
    var audioSeconds: Double = 10
    var audioClients = 10
    /// Bytes of H.264-like frames each way sends per round in the video scenario, and its latency
    /// runs: frames of `videoLatencyFrameSize` bytes at `videoLatencyRate` a second.
    var videoBytes = 16_000_000
    var videoLatencyFrames = 90
    var videoLatencyFrameSize = 16_384
    var videoLatencyRate = 30
    var scenarios: Set<String>

    /// Raises the open-file limit to its hard limit (the processes started inherit it) and
    /// returns the limit in force.
    static func raiseOpenFileLimit() -> Int {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_cur)
        #else
        return 0
        #endif
    }
}

/// One run against a started gateway: the app through the gateway (`bench`), the direct
/// session, then each scenario of the plan.
struct BenchRun: Sendable {
    let plan: BenchPlan
    let session: SDLAppSession
    let gateway: ProcessStats
    let launcher: GatewayLauncher
    /// The gateway, `host:port`.
    let base: String
    let port: Int
    let headUnit: String
    /// Where the head unit listens for apps: the plain client's (`tcp` only) and the direct session's.
    let headUnitAddress: SDLTransportAddress
    /// The head unit's control API (`host:port`), for fan-out.
    let control: String?
    /// Why throughput would be capped by a head-unit limit, if it would.
    let throughputCapped: String?
    let openFiles: Int

    static let app = "bench"

    func run() async throws -> BenchReport {
        var report = BenchReport(rounds: plan.rounds, samples: plan.samples, rate: plan.rate, headUnit: headUnit)
        let cpuBefore = gateway.cpuSeconds
        let http = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        try await http.run { send in
            let body = ByteBuffer(string: #"{"id":"\#(Self.app)","appName":"Bench REST","appID":"bench-rest"}"#)
            let created = try await send(.POST, "/v1/apps", body)
            guard created.status == 201 else {
                throw BenchFailure(description: "POST /v1/apps answered \(created.status): \(String(buffer: created.body))")
            }
            // Both apps out of NONE before anything is timed (NONE has its own limits). The head
            // unit activates the newest app, the gateway's: the direct one goes to BACKGROUND.
            let deadline = ContinuousClock.now + .seconds(15)
            while true {
                let app = try await send(.GET, "/v1/apps/\(Self.app)", nil)
                let gatewayLevel = (try? SDLJSON.parse(app.body))?["hmiLevel"]?.stringValue
                let rawLevel = session.connection?.tracker.hmiLevel
                if let gatewayLevel, gatewayLevel != "NONE", let rawLevel, rawLevel != .none { break }
                guard ContinuousClock.now < deadline else {
                    throw BenchFailure(
                        description:
                            "the apps are still in NONE after 15 s (gateway app \(gatewayLevel ?? "?"), direct app \(rawLevel.map { "\($0)" } ?? "?")): does the head unit's HMI activate them?"
                    )
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        if plan.scenarios.contains("latency") { report = try await latency(report) }
        if plan.scenarios.contains("throughput") {
            if let throughputCapped { report.throughputSkipped = throughputCapped } else { report = try await throughput(report) }
        }
        if plan.scenarios.contains("putfile") { report = try await putFile(report) }
        if plan.scenarios.contains("audio") {
            let scenario = AudioScenario(gateway: base, app: Self.app, seconds: plan.audioSeconds)
            let http = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
            let clients = plan.audioClients
            report.audio = try await http.run { send in
                [
                    try await scenario.run(clients: clients, binary: false, send: send),
                    try await scenario.run(clients: clients, binary: true, send: send),
                ]
            }
        }
        if plan.scenarios.contains("fanout") {
            if let control {
                report = try await fanOut(report, control: control)
            } else {
                report.fanOutSkipped = "no control API of the head unit's HMI (--control)"
            }
        }
        if plan.scenarios.contains("video") {
            if headUnit == "simulator", let control {
                report = try await video(report, control: control)
            } else {
                report.video.skipped =
                    "it reads what the head unit received from the simulator's control API (video.h264 and its live feed)"
            }
        }
        if plan.scenarios.contains("scale") {
            let needed = plan.scaleClients + 1_000
            if openFiles < needed {
                report.scaleSkipped = "the open-file limit is \(openFiles), \(needed) are needed"
            } else {
                // A gateway of its own: the memory the other scenarios left in the allocator's free
                // lists would hide what sessions and clients take.
                let (fresh, freshBase, freshPort) = try launcher.start()
                defer { fresh.stop() }
                let stats = fresh.stats
                let scale = ScaleScenario(
                    gateway: freshBase, host: "127.0.0.1", port: freshPort, sessions: plan.scaleSessions, clients: plan.scaleClients)
                report.scale = try await scale.run(residentKiB: { stats.residentKiB })
            }
        }
        let closing = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        try await closing.run { send in _ = try await send(.DELETE, "/v1/apps/\(Self.app)", nil) }
        report.gatewayCPUSeconds = gateway.cpuSeconds - cpuBefore
        report.gatewayResidentKiB = gateway.residentKiB
        return report
    }

    /// raw, plain, relay, rest, ws and health, one in flight, each round in another order.
    /// `plain` and `relay` need a `tcp` head unit; on another transport they are left out.
    private func latency(_ report: BenchReport) async throws -> BenchReport {
        let scenarios = LatencyScenarios(samples: plan.samples, interval: .milliseconds(1000 / plan.rate))
        let warmUp = LatencyScenarios(samples: 10, interval: scenarios.interval)
        let plan = plan
        let session = session
        let port = port
        let headUnitAddress = headUnitAddress
        return try await WebSocketRPCClient.run(base: base, app: Self.app) { call in
            var report = report
            let http = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
            return try await http.run { send in
                try await withRelay { relay in
                    let plain: PlainSDLClient?
                    if headUnitAddress.scheme == .tcp {
                        plain = try PlainSDLClient(host: headUnitAddress.host, port: headUnitAddress.port)
                        try plain?.register(SDLAppConfiguration(appName: "Bench plain", appID: "bench-plain"))
                    } else {
                        plain = nil
                        report.plainSkipped =
                            "the plain client and the relay speak tcp only, the head unit is \(headUnitAddress.scheme.rawValue)"
                    }
                    defer { plain?.close() }
                    _ = try await warmUp.raw(session)
                    if let plain { _ = try await warmUp.plain(plain) }
                    if let relay { _ = try await warmUp.relay(relay) }
                    _ = try await warmUp.rest(send, app: Self.app)
                    _ = try await warmUp.ws(call)
                    _ = try await warmUp.health(send)
                    let names = BenchReport.latencyScenarios
                    for round in 0..<plan.rounds {
                        var figures: [String: LatencySample] = [:]
                        var headUnitShare: Double?
                        // Each round starts with another scenario.
                        for offset in 0..<names.count {
                            let name = names[(round + offset) % names.count]
                            switch name {
                            case "raw": figures[name] = try await scenarios.raw(session)
                            case "plain": if let plain { figures[name] = try await scenarios.plain(plain) }
                            case "relay": if let relay { figures[name] = try await scenarios.relay(relay) }
                            case "rest":
                                let (sample, shares, headUnit) = try await scenarios.rest(send, app: Self.app)
                                figures[name] = sample
                                report.gatewayShareP50.append(LatencySample(milliseconds: shares).p50)
                                let headUnitP50 = LatencySample(milliseconds: headUnit).p50
                                headUnitShare = headUnit.isEmpty ? nil : headUnitP50
                                report.headUnitShareP50.append(headUnitP50)
                            case "ws": figures[name] = try await scenarios.ws(call)
                            default: figures[name] = try await scenarios.health(send)
                            }
                        }
                        report.add(figures, headUnitShareP50: headUnitShare)
                    }
                    return report
                }
            }
        }
    }

    /// Runs `body` with a keep-alive connection to ``PlainHTTPRelay`` started as a process of its
    /// own (`sdl-gateway-bench relay`) and stops it afterwards; `nil` when the head unit is not
    /// `tcp`.
    private func withRelay<Result: Sendable>(_ body: (HTTPKeepAliveClient.Send?) async throws -> Result) async throws -> Result {
        guard headUnitAddress.scheme == .tcp else { return try await body(nil) }
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let (relay, addresses) = try BenchProcess.start(
            executable, ["relay", "--head-unit", "tcp://\(headUnitAddress.host):\(headUnitAddress.port)"],
            waitingFor: [#"relay on 127\.0\.0\.1:([0-9]+)"#]
        )
        defer { relay.stop() }
        guard let port = Int(addresses[0]) else { throw BenchFailure(description: "the relay printed no port") }
        let client = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        return try await client.run { send in
            // Optional, so escaping to the type system; it does not outlive this call.
            try await withoutActuallyEscaping(send) { send in try await body(send) }
        }
    }

    /// raw, rest and health with `inFlight` at once, each round in another order.
    private func throughput(_ report: BenchReport) async throws -> BenchReport {
        var report = report
        report.inFlight = plan.inFlight
        let scenarios = ThroughputScenarios(requests: plan.samples * 10, inFlight: plan.inFlight, host: "127.0.0.1", port: port)
        let orders = [["raw", "rest", "health"], ["rest", "health", "raw"], ["health", "raw", "rest"]]
        for round in 0..<plan.rounds {
            var figures: [String: Double] = [:]
            for name in orders[round % orders.count] {
                switch name {
                case "raw": figures[name] = try await scenarios.raw(session)
                case "rest": figures[name] = try await scenarios.rest(app: Self.app)
                default: figures[name] = try await scenarios.health()
                }
            }
            report.addThroughput(figures)
        }
        return report
    }

    /// A 20 MB file through the gateway and straight, alternately, up to 3 rounds.
    private func putFile(_ report: BenchReport) async throws -> BenchReport {
        var report = report
        let scenario = PutFileScenario(size: 20_000_000)
        report.putFileSize = scenario.size
        report.putFilePeakKiB.before = gateway.peakResidentKiB
        let http = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        let session = session
        let rounds = min(plan.rounds, 3)
        let figures = try await http.run { send in
            var figures: [[String: Double]] = []
            for round in 0..<rounds {
                var figure: [String: Double] = [:]
                for name in round % 2 == 0 ? ["raw", "rest"] : ["rest", "raw"] {
                    figure[name] =
                        name == "raw"
                        ? try await scenario.raw(session, name: "bench-\(round).bin")
                        : try await scenario.rest(send, app: Self.app, name: "bench-\(round).bin")
                }
                figures.append(figure)
            }
            return figures
        }
        for figure in figures { report.addPutFile(figure) }
        report.putFilePeakKiB.after = gateway.peakResidentKiB
        return report
    }

    /// WebSocket clients on the app's vehicle data at 50 Hz: 1, 100 and 1,000 of them by default.
    private func fanOut(_ report: BenchReport, control: String) async throws -> BenchReport {
        var report = report
        guard let controlPort = control.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw BenchFailure(description: "--control is host:port, got \(control)")
        }
        let controlHost = String(control.split(separator: ":").dropLast().joined(separator: ":"))
        let http = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        try await http.run { send in
            let subscribed = try await send(
                .PUT, "/v1/apps/\(Self.app)/subscriptions/vehicle-data", ByteBuffer(string: #"{"names":["odometer"]}"#))
            guard subscribed.status == 200 else {
                throw BenchFailure(description: "subscribing to odometer answered \(subscribed.status): \(String(buffer: subscribed.body))")
            }
        }
        let scenario = FanOutScenario(gateway: base, app: Self.app, rate: 50, duration: .seconds(plan.fanOutSeconds))
        let controlClient = try await HTTPKeepAliveClient.connect(host: controlHost, port: controlPort)
        let gateway = gateway
        report.fanOut = try await controlClient.run { send in
            // The drive pauses, so that only the harness's values arrive (a real Core's HMI has no feed).
            _ = try await send(.PUT, "/feed", ByteBuffer(string: #"{"playing":false}"#))
            var figures: [FanOutScenario.Figures] = []
            for (index, clients) in plan.fanOutClients.enumerated() {
                figures.append(
                    try await scenario.run(clients: clients, firstValue: 1_000_000 * (index + 2), cpuSeconds: { gateway.cpuSeconds }) {
                        value in
                        let response = try await send(.PUT, "/vehicle-data", ByteBuffer(string: #"{"odometer":\#(value)}"#))
                        guard response.status == 200 else {
                            throw BenchFailure(
                                description: "PUT /vehicle-data answered \(response.status): \(String(buffer: response.body))")
                        }
                    }
                )
            }
            _ = try await send(.PUT, "/feed", ByteBuffer(string: #"{"playing":true}"#))
            return figures
        }
        return report
    }
}
