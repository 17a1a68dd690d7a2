import HeadUnitModel
import HeadlessHMI
import Logging
import NIOCore
import SDLTime
import SDLTransport
import TestSupport
import Testing

/// ``HMIConnection``'s time on an ``SDLManualClock``: the vehicle loop and the reconnection
/// backoff wait on the injected clock, so the test moves time instead of waiting for it.
@Suite("The headless HMI's connection on an injected clock", .timeLimit(.minutes(1)))
struct HMIConnectionClockTests {
    /// A loopback address where nothing listens: every connection attempt is refused at once.
    static func refusedAddress() async throws -> SDLTransportAddress {
        let server = try await SDLWebSocketServer.bind(host: "127.0.0.1", port: 0, messages: .text)
        let port = try #require(server.channel.localAddress?.port)
        try await server.channel.close()
        return SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: port)
    }

    @Test("A refused connection is tried again after 100 ms of the clock, then 150 ms, then 225 ms (× 1.5 a failure)")
    func reconnectionBackoff() async throws {
        let clock = SDLManualClock()
        let start = clock.now()
        let connection = HMIConnection(
            address: try await Self.refusedAddress(), hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)),
            logger: Logger.test("hmi-clock"), vehicle: .none, vehicleInterval: .seconds(3600), clock: clock
        )
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            // The first attempt is refused with the clock standing still: the next one waits for it.
            await clock.waitUntilScheduled { $0.contains(start + .milliseconds(100)) }
            clock.advance(to: start + .milliseconds(100))
            await clock.waitUntilScheduled { $0.contains(start + .milliseconds(250)) }
            clock.advance(to: start + .milliseconds(250))
            await clock.waitUntilScheduled { $0.contains(start + .milliseconds(475)) }
            #expect(connection.snapshot.phase == .disconnected)
            group.cancelAll()
        }
    }

    @Test("The vehicle is sampled every vehicleInterval of the clock, at the clock's elapsed time, connected or not")
    func vehicleLoop() async throws {
        let clock = SDLManualClock()
        let start = clock.now()
        let drive = GeneratedDrive()
        let connection = HMIConnection(
            address: try await Self.refusedAddress(), hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)),
            logger: Logger.test("hmi-clock"), vehicle: .generated(drive), vehicleInterval: .seconds(1), clock: clock
        )
        let first = drive.sample(at: .zero).values
        let second = drive.sample(at: .seconds(1)).values
        #expect(first != second)
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            // The first sample at once, the next one due a second of the clock later.
            await clock.waitUntilScheduled { $0.contains(start + .seconds(1)) }
            #expect(connection.snapshot.vehicleData == first)
            clock.advance(to: start + .seconds(1))
            await clock.waitUntilScheduled { $0.contains(start + .seconds(2)) }
            #expect(connection.snapshot.vehicleData == second)
            group.cancelAll()
        }
    }
}
