import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SDLClient
import SDLProtocol
import SDLTransport

/// `sdl-gateway-bench`: what the gateway costs on top of talking SDL directly, measured as ratios
/// of scenarios run in the same process, interleaved round by round (BENCHMARKS.md).
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdl-gateway-bench",
        abstract: "Measure the gateway against a direct SDL client: latency of raw SDL, REST and GET /v1/health.",
        discussion: """
            It starts `sdl-gateway simulate` and `sdl-gateway serve` as separate processes on 127.0.0.1 \
            (or, with --core, uses that head unit for both), registers one app directly and one through \
            the gateway, warms up, then runs the scenarios in rounds, each round in another order, and \
            prints a table (min / median / max over rounds) and a last line BENCH {json}. Requests of \
            one app are paced at --rate per second, under SDL Core's 1,000 per 10 s; the gateway's own \
            rate limit is lifted (--rate-limit 0).
            """
    )

    @Flag(help: "3 rounds of 40 requests per scenario: under a minute.")
    var quick = false

    @Option(help: "Rounds (each runs every scenario once). Default 7, 3 with --quick.")
    var rounds: Int?

    @Option(help: "Requests per scenario and round. Default 200, 40 with --quick.")
    var samples: Int?

    @Option(help: "Requests per second of one app in the paced scenarios (raw, rest), at most 90. Default 80.")
    var rate: Int = 80

    @Option(help: "The sdl-gateway executable. Default: the one beside this executable.")
    var gateway: String?

    @Option(help: "A head unit (tcp://host:port, e.g. SDL Core with its HMI) instead of starting the simulator.")
    var core: String?

    mutating func validate() throws {
        guard (1...90).contains(rate) else { throw ValidationError("--rate is 1…90 requests per second (SDL Core allows 100 per second per app)") }
        if let rounds, !(1...100).contains(rounds) { throw ValidationError("--rounds is 1…100") }
        if let samples, !(1...100_000).contains(samples) { throw ValidationError("--samples is 1…100000") }
    }

    func run() async throws {
        let rounds = rounds ?? (quick ? 3 : 7)
        let samples = samples ?? (quick ? 40 : 200)
        let executable = gateway ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sdl-gateway").path
        var headUnit = core
        var simulator: BenchProcess?
        if headUnit == nil {
            let (process, address) = try BenchProcess.start(
                executable, ["simulate", "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0", "--auto-activate", "--log-level", "error"],
                waitingFor: #"SDL head unit on (127\.0\.0\.1:[0-9]+)"#
            )
            simulator = process
            headUnit = "tcp://\(address)"
        }
        defer { simulator?.stop() }
        let core = headUnit ?? ""
        let (server, base) = try BenchProcess.start(
            executable, ["serve", "--listen", "127.0.0.1:0", "--core", core, "--rate-limit", "0", "--log-level", "error"],
            waitingFor: #"sdl-gateway on http://(127\.0\.0\.1:[0-9]+)"#
        )
        defer { server.stop() }
        let address = try SDLTransportAddress(core)
        let hostPort = base.split(separator: ":")
        guard hostPort.count == 2, let port = Int(hostPort[1]) else { throw ValidationError("unexpected gateway address \(base)") }

        var logger = Logger(label: "sdl-gateway-bench")
        logger.logLevel = .error
        let session = SDLAppSession(
            configuration: .init(address: address, app: SDLAppConfiguration(appName: "Bench raw", appID: "bench-raw")), logger: logger
        )
        let scenarios = LatencyScenarios(samples: samples, interval: .milliseconds(1000 / rate))
        let report = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await session.run() }
            defer { group.cancelAll() }
            var events = session.events.makeAsyncIterator()
            registration: while let event = await events.next() {
                if case .connection(.registered, _) = event { break registration }
            }
            let http = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
            let report = try await http.run { send in
                let created = try await send(.POST, "/v1/apps", Array(#"{"id":"bench","appName":"Bench REST","appID":"bench-rest"}"#.utf8))
                guard created.status == 201 else { throw ValidationError("POST /v1/apps answered \(created.status): \(String(buffer: created.body))") }
                // Warm-up: a few of each, not counted.
                let warmUp = LatencyScenarios(samples: 10, interval: scenarios.interval)
                _ = try await warmUp.raw(session)
                _ = try await warmUp.rest(send, app: "bench")
                _ = try await warmUp.health(send)
                var report = BenchReport(rounds: rounds, samples: samples, rate: rate, headUnit: simulator == nil ? core : "simulator")
                let cpuBefore = server.cpuSeconds
                for round in 0..<rounds {
                    // Each round in another order, so that no scenario always follows another.
                    let order = [["raw", "rest", "health"], ["rest", "health", "raw"], ["health", "raw", "rest"]][round % 3]
                    var figures: [String: LatencySample] = [:]
                    for name in order {
                        switch name {
                        case "raw": figures[name] = try await scenarios.raw(session)
                        case "rest":
                            let (sample, shares, headUnit) = try await scenarios.rest(send, app: "bench")
                            figures[name] = sample
                            report.gatewayShareP50.append(LatencySample([]).with(shares).p50)
                            report.headUnitShareP50.append(LatencySample([]).with(headUnit).p50)
                        default: figures[name] = try await scenarios.health(send)
                        }
                    }
                    report.add(figures)
                }
                report.gatewayCPUSeconds = server.cpuSeconds - cpuBefore
                report.gatewayResidentKiB = server.residentKiB
                _ = try await send(.DELETE, "/v1/apps/bench", nil)
                return report
            }
            await session.close()
            return report
        }
        print(report.table)
        print("BENCH " + report.json)
    }
}

extension LatencySample {
    /// A sample of values already in ms.
    func with(_ values: [Double]) -> LatencySample {
        var copy = self
        copy.milliseconds = values.sorted()
        return copy
    }
}
