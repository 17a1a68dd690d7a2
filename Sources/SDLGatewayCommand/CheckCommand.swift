import ArgumentParser
import Foundation
import HeadUnitModel
import HeadlessHMI
import Hummingbird
import Logging
import SDLConformance
import SDLTransport
import ServiceLifecycle
import SimulatorControl

/// `sdl-gateway check`: conformance cases modelled on sdl_atf's Smoke set, run against a head
/// unit (SDL Core, the simulator) as one SDL app of the project's own client, with the driver's
/// side through a control API or the in-process headless HMI (README "Conformance check").
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run conformance cases against a head unit and print a table; exit 1 when any failed.",
        discussion: """
            The app under test registers on --core (SDL Core's TCP port for apps, tcp://HOST:12345, or \
            ws:// / wss://). Cases that need the driver (activating the app, pressing buttons, answering \
            alerts and interactions, setting vehicle data) use --control (the simulator's or the headless \
            HMI's control API: sdl-gateway simulate --control, serve --simulate's /v1/simulator, hmi --control) \
            or --hmi (a headless HMI started here, attached to Core's HMI WebSocket); without either they are \
            skipped. Every response and notification is checked against MOBILE_API.xml. Exit status 0 when \
            no case failed, 1 otherwise.
            """
    )

    @Option(help: "The head unit's app port: tcp://HOST:PORT, ws://HOST:PORT or wss://HOST:PORT.")
    var core: String?

    @Option(help: "The driver's control API: http://HOST:PORT[/PREFIX] (the simulator's or the headless HMI's).")
    var control: String?

    @Option(help: "A bearer token for --control (serve's control token).")
    var token: String?

    @Option(help: "Start a headless HMI here, attached to Core's HMI WebSocket (ws://HOST:8087), and drive it.")
    var hmi: String?

    @Option(help: "Write a JUnit XML report to this file.")
    var junit: String?

    @Option(help: "Write a self-contained HTML report to this file.")
    var html: String?

    @Option(
        parsing: .singleValue,
        help: "Run only these cases: ids or areas (show.template, menu), comma-separated or repeated.")
    var only: [String] = []

    @Option(help: "Multiply every deadline and wait by this (2 for a slow head unit), above 0 and at most 100. Default 1.")
    var timeoutScale: Double = 1

    @Flag(help: "Print the case ids and titles, and exit.")
    var list = false

    @Option(help: "trace, debug, info, notice, warning, error or critical (the SDL client's log, on standard error).")
    var logLevel: Logger.Level = .error

    func validate() throws {
        guard timeoutScale > 0, timeoutScale <= 100 else { throw ValidationError("--timeout-scale must be above 0 and at most 100.") }
        guard control == nil || hmi == nil else { throw ValidationError("give --control or --hmi, not both.") }
        guard list || core != nil else { throw ValidationError("--core tcp://HOST:PORT is required (SDL Core's port for apps).") }
    }

    func run() async throws {
        let cases: [ConformanceCase]
        do throws(ConformanceSelectionError) {
            cases = try ConformanceCases.select(only.flatMap { $0.split(separator: ",").map { String($0) } })
        } catch {
            throw ValidationError("--only: \(error)")
        }
        if list {
            let width = cases.map(\.id.count).max() ?? 0
            for item in cases {
                print(
                    item.id + String(repeating: " ", count: width - item.id.count) + "  " + item.title
                        + (item.needsDriver ? " (driver)" : ""))
            }
            return
        }
        let address: SDLTransportAddress
        do throws(SDLTransportError) {
            address = try SDLTransportAddress(core ?? "")
        } catch {
            throw ValidationError("--core: \(error.detail)")
        }
        var log = Logger(label: "sdl-gateway.check")
        log.logLevel = logLevel
        let logger = log
        let report: ConformanceReport
        if let hmi {
            report = try await withHeadlessHMI(hmi, logger: logger) { driver in
                await runCases(cases, address: address, driver: driver, logger: logger)
            }
        } else {
            var driver: ControlAPIDriver?
            if let control {
                do throws(GatewayClientError) {
                    driver = try ControlAPIDriver(url: control, token: token)
                } catch {
                    throw ValidationError("--control: \(error.message)")
                }
            }
            report = await runCases(cases, address: address, driver: driver, logger: logger)
        }
        print(ConformanceTextReport.render(report), terminator: "")
        try write(report)
        if !report.passed { throw ExitCode(1) }
    }

    private func runCases(
        _ cases: [ConformanceCase], address: SDLTransportAddress, driver: (any ConformanceDriver)?, logger: Logger
    ) async -> ConformanceReport {
        let runner = ConformanceRunner(address: address, driver: driver, timeoutScale: timeoutScale, logger: logger)
        // On a terminal, each case as it ends (a run against SDL Core takes a minute or more);
        // the table goes to standard output at the end either way.
        let showsProgress = isatty(STDERR_FILENO) == 1
        let total = cases.count
        return await runner.run(cases) { done, result in
            guard showsProgress else { return }
            FileHandle.standardError.write(Data("[\(done)/\(total)] \(result.id): \(result.outcome.rawValue)\n".utf8))
        }
    }

    private func write(_ report: ConformanceReport) throws {
        for (path, text) in [(junit, ConformanceJUnitReport.render(report)), (html, ConformanceHTMLReport.render(report))] {
            guard let path else { continue }
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                FileHandle.standardError.write(Data("sdl-gateway check: cannot write \(path): \(error.localizedDescription)\n".utf8))
                throw ExitCode(1)
            }
        }
    }

    /// Runs `body` with a headless HMI attached to Core's HMI WebSocket at `url` and its control
    /// routes on a loopback port of their own, driven over HTTP as `--control` is.
    private func withHeadlessHMI(
        _ url: String, logger: Logger, _ body: @escaping @Sendable (ControlAPIDriver) async -> ConformanceReport
    ) async throws -> ConformanceReport {
        let address: SDLTransportAddress
        do throws(SDLTransportError) {
            address = try SDLTransportAddress(url)
        } catch {
            throw ValidationError("--hmi: \(error.detail)")
        }
        guard address.scheme != .tcp else { throw ValidationError("--hmi is Core's HMI WebSocket, ws:// or wss:// (got \(url))") }
        let connection = HMIConnection(
            address: address, hmi: HeadlessHMI(answers: HMIAnswers(profile: SimulatorProfile.default)), logger: logger,
            vehicle: .generated(GeneratedDrive()))
        let routes = HMIControlRoutes(connection: connection)
        let (ports, port) = AsyncStream<Int>.makeStream()
        let controlApp = Application(
            router: routes.makeRouter(loopbackHostsOnly: true),
            server: routes.makeServer(loopbackHostsOnly: true),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "sdl-gateway-check-hmi"),
            onServerRunning: { channel in
                port.yield(channel.localAddress?.port ?? 0)
                port.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [connection, controlApp], logger: logger))
        return try await withThrowingTaskGroup(of: ConformanceReport?.self) { tasks in
            tasks.addTask {
                // A control API that cannot start ends the wait for its port.
                defer { port.finish() }
                try await group.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let bound = await iterator.next(), bound > 0 else {
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                throw ValidationError("the headless HMI's control API did not start")
            }
            let driver = try ControlAPIDriver(url: "http://127.0.0.1:\(bound)", token: nil)
            let report = await body(driver)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return report
        }
    }
}
