import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import SDLTime
import Testing

/// ``SDLConnection``'s timers on an ``SDLManualClock`` against the simulator over TCP: time moves
/// only when the test moves it, so deadlines, heartbeats and idle timeouts are tested without
/// waiting for them.
@Suite("Connection timers on an injected clock", .timeLimit(.minutes(1)))
struct ConnectionClockTests {
    static func active(_ event: SDLAppEvent) -> Bool {
        if case .appState(_, to: .active) = event { true } else { false }
    }

    @Test("Idle, nothing is scheduled; a request arms a wake-up at its deadline at once, an earlier one moves it; advancing times them out")
    func requestDeadlines() async throws {
        let clock = SDLManualClock()
        try await ConnectionTests.withSimulator { simulator, port in
            try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Alert", hang: true)), []) }
            _ = try await ConnectionTests.withConnection(port: port, clock: clock) { connection, _ in
                try await ConnectionTests.waitFor(connection, Self.active)
                let start = clock.now()
                // v5 sends no heartbeats and nothing is pending: an idle session costs nothing.
                #expect(clock.scheduledDeadlines.isEmpty)
                try await withThrowingTaskGroup(of: (String, SDLClientError.Code?).self) { group in
                    for (text, timeout) in [("slow", 3), ("fast", 1)] {
                        group.addTask {
                            do {
                                _ = try await connection.request(
                                    "Alert", ["alertText1": .string(text)],
                                    options: .init(timeout: .seconds(Int64(timeout)), checkPermissions: false)
                                )
                                return (text, nil)
                            } catch {
                                return (text, (error as? SDLClientError)?.code)
                            }
                        }
                        // The wake-up follows the earliest deadline at once: no polling interval.
                        await clock.waitUntilScheduled { $0 == [start + .seconds(Int64(timeout))] }
                    }
                    clock.advance(by: .seconds(1))
                    let fast = try await group.next()
                    #expect(fast?.0 == "fast" && fast?.1 == .timedOut)
                    #expect(clock.scheduledDeadlines == [start + .seconds(3)])
                    #expect(connection.pendingRequestCount == 1)
                    clock.advance(by: .seconds(2))
                    let slow = try await group.next()
                    #expect(slow?.0 == "slow" && slow?.1 == .timedOut)
                }
                #expect(clock.scheduledDeadlines.isEmpty)
                #expect(connection.pendingRequestCount == 0)
            }
        }
    }

    @Test("Heartbeats go on the injected clock: the wake-up moves with each beat")
    func heartbeats() async throws {
        let clock = SDLManualClock()
        try await ConnectionTests.withSimulator { _, port in
            let ended = try await ConnectionTests.withConnection(
                port: port, clock: clock,
                configure: {
                    $0.session.heartbeatVersions = 3...5
                    $0.session.heartbeatInterval = .seconds(5)
                    $0.session.idleTimeout = .after(.seconds(60))
                }
            ) { connection, _ in
                let start = clock.now()
                // Registered with the clock standing still: the first Heartbeat is due 5 s after
                // the last frame sent (RegisterAppInterface).
                await clock.waitUntilScheduled { $0 == [start + .seconds(5)] }
                clock.advance(by: .seconds(5))
                // The beat went out at +5 s: the next one is due at +10 s.
                #expect(clock.scheduledDeadlines == [start + .seconds(10)])
                clock.advance(by: .seconds(5))
                #expect(clock.scheduledDeadlines == [start + .seconds(15)])
                #expect(connection.sessionParameters?.protocolVersion == "5.4.0")
            }
            #expect(ended == nil)
        }
    }

    @Test("A link silent for the idle timeout ends with linkLost when the clock passes it, not before")
    func idleTimeout() async throws {
        let clock = SDLManualClock()
        try await ConnectionTests.withSimulator { _, port in
            let ended = try await ConnectionTests.withConnection(
                port: port, clock: clock,
                configure: {
                    $0.session.idleTimeout = .after(.seconds(30))
                }
            ) { connection, _ in
                try await ConnectionTests.waitFor(connection, Self.active)
                let start = clock.now()
                // The wake-up armed for RegisterAppInterface's deadline (+12 s) is kept when the
                // next deadline moves later; it fires once, finds nothing due, and re-arms at the
                // idle deadline.
                #expect(clock.scheduledDeadlines.allSatisfy { $0 <= start + .seconds(30) })
                clock.advance(by: .seconds(29))
                #expect(clock.scheduledDeadlines == [start + .seconds(30)])
                #expect(connection.tracker.isRegistered)
                clock.advance(by: .seconds(1))
                // The timer ran inside advance(by:): the events end with the link.
                for await _ in connection.events {}
                #expect(!connection.tracker.isRegistered)
            }
            let error = try #require(ended as? SDLClientError)
            #expect(error.code == .linkLost)
            #expect(error.detail.contains("nothing received for 30000 ms"))
        }
    }
}
