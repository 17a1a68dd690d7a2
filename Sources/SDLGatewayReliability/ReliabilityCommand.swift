import ArgumentParser
import Foundation
import ProcessHarness
import SDLProtocol

/// `sdl-gateway-reliability`: faults, floods and churn against the simulator and the gateway run
/// as separate processes (RELIABILITY.md). Each scenario prints a result line; the last line is
/// `RELIABILITY {json}` with every figure. It exits 1 when a check failed; timing targets are
/// figures (`…Within…` flags), not checks.
@main
struct ReliabilityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdl-gateway-reliability",
        abstract: "Runs the reliability scenarios against sdl-gateway simulate and serve, as processes on 127.0.0.1.",
        discussion: """
            Scenarios: restart (the head unit killed and started again with requests pending), hang (SIGSTOP: \
            deadlines and heartbeats), malformed (a flood of malformed frames on one app), burst (10,000 \
            notifications to 100 event clients, one slow), churn (1,000 WebSocket and 1,000 SSE connect/disconnect \
            cycles), recreate (64 clients sending RPCs while the app is deleted and re-created). --quick runs smaller \
            versions of all six in about a minute.
            """
    )

    static let allScenarios = ["restart", "hang", "malformed", "burst", "churn", "recreate"]

    @Flag(help: "Smaller versions of every scenario (CI).")
    var quick = false

    @Option(help: "Only these scenarios, comma-separated: restart, hang, malformed, burst, churn, recreate.")
    var only: String?

    @Option(help: "The gateway's --heartbeat in seconds: a hung head unit is declared lost after three (default 1).")
    var heartbeat = 1

    @Option(help: "The sdl-gateway executable (default: the one beside this one).")
    var gateway: String?

    func validate() throws {
        for name in selected where !Self.allScenarios.contains(name) {
            throw ValidationError("--only: \(name) is not one of \(Self.allScenarios.joined(separator: ", "))")
        }
    }

    var selected: [String] { only.map { $0.split(separator: ",").map(String.init) } ?? Self.allScenarios }

    func run() async throws {
        let executable =
            gateway ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sdl-gateway").path
        let burstClients = quick ? 20 : 100
        // Room for the burst's clients; the heartbeat finds a hung head unit in about 3 s (the
        // default second); no
        // request limit of the gateway's own (the simulator runs without one too), so that the
        // scenarios' load reaches the head unit.
        let configFile = FileManager.default.temporaryDirectory.appendingPathComponent("sdl-gateway-reliability-\(getpid()).json")
        try Data(#"{"events": {"maximumClients": \#(burstClients + 50)}}"#.utf8).write(to: configFile)
        defer { try? FileManager.default.removeItem(at: configFile) }
        let rig = try ReliabilityRig(
            executable: executable,
            gatewayArguments: [
                "--heartbeat", "\(heartbeat)", "--core-request-limit", "0", "--rate-limit", "0", "--config", configFile.path,
            ]
        )
        defer { rig.stop() }
        var results: [ScenarioResult] = []
        for name in selected {
            let started = ContinuousClock.now
            var result: ScenarioResult
            do {
                switch name {
                case "restart": result = try await RestartScenario(pending: quick ? 4 : 8).run(rig)
                case "hang": result = try await HangScenario(requests: quick ? 3 : 5).run(rig)
                case "malformed": result = try await MalformedFrameScenario(frames: quick ? 5 : 20).run(rig)
                case "burst":
                    result = try await BurstScenario(
                        count: quick ? 2_000 : 10_000, clients: burstClients, slowPause: .milliseconds(quick ? 5 : 20)
                    ).run(rig)
                case "churn": result = try await ChurnScenario(cycles: quick ? 100 : 1_000).run(rig)
                default: result = try await RecreateScenario(clients: quick ? 16 : 64, rounds: quick ? 3 : 10).run(rig)
                }
            } catch {
                result = ScenarioResult(name)
                result.summary = "did not complete"
                result.check(false, "\(error)")
            }
            result["seconds"] = .number((ContinuousClock.now - started).milliseconds / 1000)
            print(result.line)
            results.append(result)
        }
        var members: [String: SDLJSON] = [:]
        for result in results { members[result.name] = result.json }
        members["passed"] = .bool(results.allSatisfy(\.passed))
        members["quick"] = .bool(quick)
        print("RELIABILITY " + SDLJSON.object(members).serialized())
        if !results.allSatisfy(\.passed) { throw ExitCode(1) }
    }
}
