import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLClient
import SDLProtocol
import SDLTransport

/// `sdl-gateway-bench`: what the gateway costs on top of talking SDL directly, measured as ratios
/// of scenarios run in the same process, interleaved round by round (BENCHMARKS.md).
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdl-gateway-bench",
        abstract: "Measure the gateway against a direct SDL client: latency, throughput, PutFile, audio, video, fan-out and scale.",
        discussion: """
            It starts `sdl-gateway simulate` and `sdl-gateway serve` as separate processes on 127.0.0.1 \
            (or, with --core, uses that head unit), registers one app directly and one through the \
            gateway, warms up, then runs the scenarios in rounds, each round in another order, and \
            prints a table (min / median / max over rounds) and a last line BENCH {json}. Latency \
            requests of one app are paced at --rate per second, under SDL Core's 1,000 per 10 s. \
            Throughput needs no head-unit limit: the simulator is started with --request-limit 0 and \
            the gateway with --core-request-limit 0; against --core it runs only with \
            --core-request-limit 0 (Core's AppTimeScaleMaxRequests = 0). The gateway's own rate \
            limit is lifted (--rate-limit 0) and its event client limit raised (events.maximumClients).
            """,
        subcommands: [RelayCommand.self]
    )

    @Flag(help: "3 rounds of 40 latency requests, 2 s of fan-out, 50 sessions and 1,000 idle clients: under two minutes.")
    var quick = false

    @Option(help: "Rounds (each runs every scenario once). Default 7, 3 with --quick.")
    var rounds: Int?

    @Option(help: "Requests per latency scenario and round (throughput: 10 times as many). Default 200, 40 with --quick.")
    var samples: Int?

    @Option(help: "Requests per second of one app in the paced scenarios (raw, rest, ws), at most 90. Default 80.")
    var rate: Int = 80

    @Option(help: "Requests in flight in the throughput scenarios. Default 64.")
    var inFlight: Int = 64

    @Option(help: "Seconds of each fan-out run (50 Hz). Default 10, 2 with --quick.")
    var fanOutSeconds: Int?

    @Option(help: "WebSocket clients of each fan-out run. Repeatable. Default 1, 100 and 1000.")
    var fanOut: [Int] = []

    @Option(help: "App sessions and idle WebSocket clients of the scale scenario. Default 250 and 10000, 50 and 1000 with --quick.")
    var scale: [Int] = []

    @Option(help: "Seconds of 16 kHz 16-bit audio the audio scenario records, for 10 WebSocket clients. Default 10, 2 with --quick.")
    var audioSeconds: Double?

    @Option(
        help:
            "MB of H.264-like frames each way (raw, ws, post) sends per round in the video scenario. Default 16, 4 with --quick.")
    var videoMegabytes: Double?

    @Option(help: "Scenarios to run: latency, throughput, putfile, audio, video, fanout, scale (comma-separated). Default all.")
    var only: String?

    @Option(help: "The sdl-gateway executable. Default: the one beside this executable.")
    var gateway: String?

    @Option(help: "A head unit (tcp://host:port, e.g. SDL Core with its HMI) instead of starting the simulator.")
    var core: String?

    @Option(help: "With --core: the control API of its HMI (sdl-gateway hmi --control), host:port, for fan-out.")
    var control: String?

    @Option(help: "With --core: Core's AppTimeScaleMaxRequests (0: none). Throughput runs only with 0. Default 1000.")
    var coreRequestLimit: Int = 1000

    static let allScenarios = ["latency", "throughput", "putfile", "audio", "video", "fanout", "scale"]

    mutating func validate() throws {
        guard (1...90).contains(rate) else {
            throw ValidationError("--rate is 1…90 requests per second (SDL Core allows 100 per second per app)")
        }
        if let rounds, !(1...100).contains(rounds) { throw ValidationError("--rounds is 1…100") }
        if let samples, !(1...100_000).contains(samples) { throw ValidationError("--samples is 1…100000") }
        guard (1...1024).contains(inFlight) else { throw ValidationError("--in-flight is 1…1024") }
        if let fanOutSeconds, !(1...600).contains(fanOutSeconds) { throw ValidationError("--fan-out-seconds is 1…600") }
        if let audioSeconds, !(0.1...600).contains(audioSeconds) { throw ValidationError("--audio-seconds is 0.1…600") }
        if let videoMegabytes, !(0.1...1000).contains(videoMegabytes) { throw ValidationError("--video-megabytes is 0.1…1000") }
        guard scale.isEmpty || (scale.count == 2 && (0...250).contains(scale[0]) && (0...50_000).contains(scale[1])) else {
            throw ValidationError("--scale takes two values, sessions (0…250) then clients (0…50000): --scale 250 --scale 10000")
        }
        guard fanOut.allSatisfy({ (1...20_000).contains($0) }) else { throw ValidationError("--fan-out is 1…20000 clients") }
        for name in selected where !Self.allScenarios.contains(name) {
            throw ValidationError("--only: \(name) is not one of \(Self.allScenarios.joined(separator: ", "))")
        }
    }

    var selected: [String] { only.map { $0.split(separator: ",").map(String.init) } ?? Self.allScenarios }

    func run() async throws {
        var plan = BenchPlan(
            rounds: rounds ?? (quick ? 3 : 7), samples: samples ?? (quick ? 40 : 200), rate: rate, inFlight: inFlight,
            fanOutSeconds: fanOutSeconds ?? (quick ? 2 : 10), fanOutClients: fanOut.isEmpty ? [1, 100, 1_000] : fanOut,
            scaleSessions: scale.first ?? (quick ? 50 : 250), scaleClients: scale.dropFirst().first ?? (quick ? 1000 : 10_000),
            audioSeconds: audioSeconds ?? (quick ? 2 : 10), scenarios: Set(selected)
        )
        plan.videoBytes = Int((videoMegabytes ?? (quick ? 4 : 16)) * 1e6)
        plan.videoLatencyFrames = min(plan.samples, 90)
        let openFiles = BenchPlan.raiseOpenFileLimit()
        let executable =
            gateway ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sdl-gateway").path
        var headUnit = core
        var controlAddress = control
        var simulator: BenchProcess?
        if headUnit == nil {
            let (process, addresses) = try BenchProcess.start(
                executable,
                [
                    "simulate", "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0", "--auto-activate", "--request-limit", "0",
                    // 1 MiB of each video stream kept: the video scenario reads it back in one response.
                    "--stream-keep", "1", "--log-level", "error",
                ],
                waitingFor: [#"SDL head unit on (127\.0\.0\.1:[0-9]+)"#, #"control API on http://(127\.0\.0\.1:[0-9]+)"#]
            )
            simulator = process
            headUnit = "tcp://\(addresses[0])"
            controlAddress = addresses[1]
        }
        defer { simulator?.stop() }
        let requestLimit = simulator == nil ? coreRequestLimit : 0
        let core = headUnit ?? ""
        // The event client limit must hold the fan-out and scale clients; the app limit the scale
        // scenario's sessions beside the other scenarios' apps.
        let configFile = FileManager.default.temporaryDirectory.appendingPathComponent("sdl-gateway-bench-\(getpid()).json")
        let clients = max(plan.fanOutClients.max() ?? 0, plan.scaleClients) + 100
        let apps = plan.scaleSessions + 100
        try Data(#"{"maxApps": \#(apps), "events": {"maximumClients": \#(clients)}}"#.utf8).write(to: configFile)
        defer { try? FileManager.default.removeItem(at: configFile) }
        let launcher = GatewayLauncher(
            executable: executable,
            arguments: [
                "serve", "--listen", "127.0.0.1:0", "--core", core, "--rate-limit", "0", "--core-request-limit", "\(requestLimit)",
                "--config", configFile.path, "--log-level", "error",
            ]
        )
        let (server, base, port) = try launcher.start()
        defer { server.stop() }

        var logger = Logger(label: "sdl-gateway-bench")
        logger.logLevel = .error
        var sessionConfiguration = SDLConnection.Configuration(
            address: try SDLTransportAddress(core), app: SDLAppConfiguration(appName: "Bench raw", appID: "bench-raw"))
        if requestLimit == 0 {
            sessionConfiguration.rateLimits.anyLevel = SDLRequestRateLimiter.Limit(maximumRequests: 0, window: .seconds(10))
        }
        let session = SDLAppSession(configuration: sessionConfiguration, logger: logger)
        let context = BenchRun(
            plan: plan, session: session, gateway: server.stats, launcher: launcher, base: base, port: port,
            headUnit: simulator == nil ? core : "simulator", headUnitAddress: sessionConfiguration.address,
            control: controlAddress,
            throughputCapped: requestLimit == 0
                ? nil
                : "the head unit allows each app \(requestLimit) requests per 10 s (--core-request-limit); run Core with AppTimeScaleMaxRequests = 0 and pass --core-request-limit 0",
            openFiles: openFiles
        )
        let report = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await session.run() }
            defer { group.cancelAll() }
            var events = session.events.makeAsyncIterator()
            registration: while let event = await events.next() {
                if case .connection(.registered, _) = event { break registration }
            }
            let report = try await context.run()
            await session.close()
            return report
        }
        print(report.table)
        print("BENCH " + report.json)
    }
}
