import HeadUnitSimulator
import Logging
import NIOCore
import NIOPosix
import SDLClient
import SDLProtocol
import SDLTime
import Synchronization
import TestSupport
import Testing

/// ``SDLConnection`` against the simulated head unit over real TCP (127.0.0.1, port 0).
@Suite("Connection to the simulator over TCP", .timeLimit(.minutes(1)))
struct ConnectionTests {
    static func withSimulator(
        _ configuration: HeadUnitConfiguration = HeadUnitConfiguration(autoActivate: true, timeScale: 0.01),
        _ body: @Sendable (SimulatedHeadUnit, Int) async throws -> Void
    ) async throws {
        let simulator = SimulatedHeadUnit(configuration: configuration, logger: Logger.test("test"))
        try await simulator.withListening { port in try await body(simulator, port) }
    }

    /// Runs a connection until `body` ends, then closes it; returns how `run()` ended.
    static func withConnection(
        port: Int,
        app: SDLAppConfiguration = SDLAppConfiguration(appName: "Client Demo", appID: "client-demo", isMediaApplication: true),
        clock: any SDLClock = SDLSystemClock(),
        configure: (inout SDLConnection.Configuration) -> Void = { _ in },
        _ body: @Sendable (SDLConnection, SDLRPCMessage) async throws -> Void
    ) async throws -> (any Error)? {
        var configuration = SDLConnection.Configuration(port: port, app: app)
        configure(&configuration)
        return try await withConnection(configuration, clock: clock, body)
    }

    /// Runs a connection with `configuration` until `body` ends (with its registration), then
    /// closes it; returns how `run()` ended.
    static func withConnection(
        _ configuration: SDLConnection.Configuration, clock: any SDLClock = SDLSystemClock(),
        _ body: @Sendable (SDLConnection, SDLRPCMessage) async throws -> Void
    ) async throws -> (any Error)? {
        let connection = SDLConnection(configuration: configuration, clock: clock, logger: Logger.test("test"))
        return try await withThrowingTaskGroup(of: (any Error)?.self) { group in
            group.addTask {
                do {
                    try await connection.run()
                    return nil
                } catch {
                    return error
                }
            }
            guard let response = await registration(of: connection) else {
                // The body never ran: the test must not pass without its assertions.
                let ended = try await group.next() ?? nil
                throw NotRegistered(ended: ended)
            }
            try await body(connection, response)
            await connection.close()
            return try await group.next() ?? nil
        }
    }

    /// Reads `connection`'s events up to its registration; its RegisterAppInterface response, or
    /// `nil` when the events ended first.
    static func registration(of connection: SDLConnection) async -> SDLRPCMessage? {
        for await event in connection.events {
            if case .registered(let response) = event { return response }
        }
        return nil
    }

    /// Waits for the first app event `matching`; throws when the connection's events end first.
    static func waitFor(_ connection: SDLConnection, _ matching: (SDLAppEvent) -> Bool) async throws {
        for await event in connection.events {
            if case .app(let event) = event, matching(event) { return }
        }
        throw EventsEnded()
    }

    @Test("No head unit at the address: run() throws connectFailed and the events end, so nothing waits on them")
    func connectRefused() async throws {
        // A port that was just listening and is closed now: the connect is refused.
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        try await listener.close()
        let connection = SDLConnection(
            configuration: .init(port: port, app: SDLAppConfiguration(appName: "Nobody", appID: "nobody")), logger: Logger.test("test"))
        await #expect { try await connection.run() } throws: { ($0 as? SDLClientError)?.code == .connectFailed }
        var events = connection.events.makeAsyncIterator()
        #expect(await events.next() == nil)
        await #expect { _ = try await connection.request("Show", ["mainField1": "x"]) } throws: {
            ($0 as? SDLClientError)?.code == .notConnected
        }
    }

    @Test("The socket runs on the configured event loops, not NIO's shared ones")
    func eventLoopGroup() async throws {
        try await Self.withSimulator { _, port in
            let ticks = LoopTicks()
            let own = MultiThreadedEventLoopGroup(numberOfThreads: 1, metricsDelegate: ticks)
            let before = ticks.tasks.load(ordering: .relaxed)
            let ended = try await Self.withConnection(port: port, configure: { $0.eventLoopGroup = own }) { connection, response in
                #expect(response.parameters["resultCode"] == "SUCCESS")
                _ = try await connection.request("Show", ["mainField1": "on its own loop"])
            }
            #expect(ended == nil)
            // Connecting, negotiating, registering and a Show: every read and write of the
            // socket is a task on its loop. Without the configured group this loop runs nothing.
            #expect(ticks.tasks.load(ordering: .relaxed) - before >= 4)
            try await own.shutdownGracefully()
        }
    }

    /// Counts the tasks an event loop ran (NIO's tick metrics).
    private final class LoopTicks: NIOEventLoopMetricsDelegate {
        let tasks = Atomic<Int>(0)
        func processedTick(info: NIOEventLoopTickInfo) {
            tasks.add(info.numberOfTasks, ordering: .relaxed)
        }
    }

    @Test("Negotiates v5, registers, follows the HMI to FULL, sends requests, ends cleanly")
    func session() async throws {
        try await Self.withSimulator { simulator, port in
            let ended = try await Self.withConnection(port: port) { connection, response in
                #expect(response.parameters["resultCode"] == "SUCCESS")
                #expect(connection.sessionParameters?.protocolVersion == "5.4.0")
                #expect(connection.sessionParameters?.hashID == 65537)
                try await Self.waitFor(connection) { if case .appState(_, to: .active) = $0 { true } else { false } }
                #expect(connection.tracker.hmiStatus?.hmiLevel == .full)
                let show = try await connection.request("Show", ["mainField1": "Hello from SDLClient"])
                #expect(show.parameters["success"] == true)
                let subscribe = try await connection.request("SubscribeVehicleData", ["speed": true])
                #expect(subscribe.parameters["resultCode"] == "SUCCESS")
                await #expect(throws: SDLClientError.self) { _ = try await connection.request("Show", ["mainField1": 42]) }
                await #expect(throws: SDLClientError.self) { _ = try await connection.request("NoSuchFunction") }
                #expect(simulator.snapshot.app(withID: "client-demo")?.screen.show["mainField1"] == "Hello from SDLClient")
            }
            #expect(ended == nil)
            #expect(simulator.snapshot.app(withID: "client-demo") == nil)
        }
    }

    @Test("The default policy's permission table refuses Show in NONE locally, naming the allowed levels")
    func permissionPreflight() async throws {
        try await Self.withSimulator(HeadUnitConfiguration(policy: .sdlDefault)) { simulator, port in
            _ = try await Self.withConnection(port: port) { connection, _ in
                try await Self.waitFor(connection) { if case .permissions = $0 { true } else { false } }
                do {
                    _ = try await connection.request("Show", ["mainField1": "too early"])
                    Issue.record("Show was sent in NONE")
                } catch let error as SDLClientError {
                    #expect(error.code == .notPermitted)
                    #expect(error.detail.contains("BACKGROUND"))
                }
                #expect(simulator.snapshot.log.entries.allSatisfy { $0.function != "Show" })
            }
        }
    }

    @Test("When the head unit drops the link, the pending request fails at once with linkLost")
    func linkLoss() async throws {
        try await Self.withSimulator { simulator, port in
            try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Show", dropConnection: true)), []) }
            let ended = try await Self.withConnection(port: port) { connection, _ in
                let started = ContinuousClock.now
                do {
                    _ = try await connection.request("Show", ["mainField1": "bye"], options: .init(checkPermissions: false))
                    Issue.record("Show was answered")
                } catch let error as SDLClientError {
                    #expect(error.code == .linkLost)
                }
                #expect(ContinuousClock.now - started < .seconds(5))
            }
            #expect((ended as? SDLClientError)?.code == .linkLost)
        }
    }

    @Test("A registration the head unit refuses ends the session with registrationFailed")
    func registrationRefused() async throws {
        try await Self.withSimulator { _, port in
            _ = try await Self.withConnection(port: port) { _, _ in
                let second = SDLConnection(
                    configuration: .init(port: port, app: SDLAppConfiguration(appName: "Other", appID: "client-demo")),
                    logger: Logger.test("test")
                )
                do {
                    try await second.run()
                    Issue.record("the duplicate appID registered")
                } catch let error as SDLClientError {
                    #expect(error.code == .registrationFailed)
                    #expect(error.detail.contains("DISALLOWED"))
                }
            }
        }
    }
}
