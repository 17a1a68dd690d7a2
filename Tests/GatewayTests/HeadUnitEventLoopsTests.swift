import Dispatch
@testable import Gateway
import HeadUnitSimulator
import Logging
import NIOCore
import NIOPosix
import SDLClient
import SDLTransport
import TestSupport
import Testing

/// The head-unit links run on the group the options name (``GatewayApps/Options/eventLoopGroup``),
/// and ``HeadUnitEventLoops/with(_:)`` shuts its group down when the application ended.
@Suite("Head-unit event loops: passed in, used, shut down", .timeLimit(.minutes(1)))
struct HeadUnitEventLoopsTests {
    @Test("An app's session connects on the options' group: while its one loop is held nothing registers, once free the app does")
    func sessionsRunOnTheGroup() async throws {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(autoActivate: true), logger: Logger.test("test"))
        try await simulator.withListening { port in
            try await HeadUnitEventLoops.with { loops in
                let options = GatewayApps.Options(
                    defaultCore: .tcp(host: "127.0.0.1", port: port), shutdownGracePeriod: .seconds(2), eventLoopGroup: loops)
                let apps = GatewayApps(options: options, logger: Logger.test("test"))
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { try await apps.run() }
                    // Holds the group's only loop until released.
                    let release = DispatchSemaphore(value: 0)
                    loops.next().execute { release.wait() }
                    let id = try await apps.create(
                        id: "held", core: nil, app: SDLAppConfiguration(appName: "Held", appID: "held-app"), wait: false)
                    #expect(await apps.waitUntilSettled(id, limit: .milliseconds(300)) == .expired)
                    let session = try apps.session(id)
                    #expect(session.connectionState != .registered)
                    release.signal()
                    #expect(await apps.waitUntilSettled(id, limit: .seconds(20)) == .settled)
                    #expect(session.connectionState == .registered)
                    await apps.shutdown()
                    // Ends run()'s wait for a graceful shutdown, which no service group signals here.
                    group.cancelAll()
                }
            }
        }
    }

    @Test("with(_:) shuts its group down after the body returned, and after it threw: the group's channels are closed")
    func shutDown() async throws {
        /// A listening socket on `group`, open while the group runs.
        func listener(on group: MultiThreadedEventLoopGroup) async throws -> any Channel {
            let channel = try await ServerBootstrap(group: group).bind(host: "127.0.0.1", port: 0).get()
            #expect(channel.isActive)
            return channel
        }
        // (Their close futures are not awaited: a future of a loop shut down cannot call back.)
        let returned = try await HeadUnitEventLoops.with { group in try await listener(on: group) }
        #expect(!returned.isActive)

        struct Failure: Error {}
        var thrownFrom: (any Channel)?
        await #expect(throws: Failure.self) {
            try await HeadUnitEventLoops.with { group in
                thrownFrom = try await listener(on: group)
                throw Failure()
            }
        }
        let channel = try #require(thrownFrom)
        #expect(!channel.isActive)
    }
}
