import Logging
import NIOCore
import SDLProtocol
import SDLSpec
import SDLTime
import Synchronization
import TestSupport
import Testing

@testable import HeadUnitSimulator

/// The driver's timer loop on a ``SDLManualClock``: it sleeps until the head unit's next
/// deadline and no longer, wakes when an input brings that deadline forward, and never wakes
/// when nothing is due. Time is advanced, never waited for.
@Suite("Simulator driver: timers on a manual clock", .timeLimit(.minutes(1)))
struct SimulatorDriverTimerTests {
    static func withSimulator(
        _ configuration: HeadUnitConfiguration = HeadUnitConfiguration(),
        _ body: @Sendable (SimulatedHeadUnit, SDLManualClock, Int) async throws -> Void
    ) async throws {
        let clock = SDLManualClock()
        let simulator = SimulatedHeadUnit(configuration: configuration, clock: clock, logger: Logger.test("test"))
        try await simulator.withListening { port in try await body(simulator, clock, port) }
    }

    /// Waits until the timer loop goes to sleep with a deadline `predicate` accepts.
    static func parked(_ simulator: SimulatedHeadUnit, where predicate: (NIODeadline?) -> Bool) async throws -> NIODeadline? {
        for await deadline in simulator.wakeUpSignal.parkings where predicate(deadline) {
            return deadline
        }
        throw CancellationError()
    }

    @Test("Idle, with an app connected and a session open, the loop sleeps with no deadline and nothing wakes it")
    func idleNeverWakes() async throws {
        try await Self.withSimulator { simulator, clock, port in
            #expect(try await Self.parked(simulator) { _ in true } == nil)
            let wakeUps = simulator.timerWakeUps.load(ordering: .relaxed)
            let rings = simulator.wakeUpSignal.rings
            #expect(clock.scheduledDeadlines.isEmpty)

            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                _ = try await session.start()
                let registered = try await session.call("RegisterAppInterface", SimulatorEndToEndTests.registration)
                #expect(registered.parameters["resultCode"] == "SUCCESS")
            }
            // The connection, the session and the registration set no timer: nothing rang, the
            // loop did not wake, and an hour passing does not wake it either.
            clock.advance(by: .seconds(3600))
            #expect(simulator.wakeUpSignal.rings == rings)
            #expect(simulator.timerWakeUps.load(ordering: .relaxed) == wakeUps)
            #expect(clock.scheduledDeadlines.isEmpty)
        }
    }

    @Test("Heartbeat: the loop sleeps until the timeout; advancing the clock sends the Heartbeat, then EndService")
    func heartbeatTimeout() async throws {
        try await Self.withSimulator { simulator, clock, port in
            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                _ = try await session.start()
                #expect(try await Self.parked(simulator) { _ in true } == nil)
                try await session.write([
                    SDLControlMessage.heartbeat.makeFrame(version: 5, serviceType: .control, sessionID: session.sessionID, messageID: 41)
                ])
                guard case .control(let ackHeader, .heartbeatACK) = try await session.next() else {
                    throw RawSDLClient.Failure(description: "no HeartbeatACK")
                }
                #expect(ackHeader.messageID == 41)
                let received = clock.now()
                // The Heartbeat rang the loop awake; it sleeps until HeartBeatTimeout (7 s) now.
                #expect(try await Self.parked(simulator) { $0 != nil } == received + .seconds(7))

                clock.advance(by: .seconds(7))
                guard case .control(let beatHeader, .heartbeat) = try await session.next() else {
                    throw RawSDLClient.Failure(description: "no Heartbeat")
                }
                #expect(beatHeader.sessionID == session.sessionID)
                #expect(try await Self.parked(simulator) { $0 != received + .seconds(7) } == received + .seconds(14))

                clock.advance(by: .seconds(7))
                guard case .control(let endHeader, .endService(let end)) = try await session.next() else {
                    throw RawSDLClient.Failure(description: "no EndService")
                }
                #expect(endHeader.serviceType == .rpc)
                #expect(end.hashID == Int32(session.sessionID) << 16 | 1)
                #expect(try await Self.parked(simulator) { $0 == nil } == nil)
            }
        }
    }

    @Test("Auto-activation: FULL exactly 200 ms after registration on the simulator's clock")
    func autoActivate() async throws {
        try await Self.withSimulator(HeadUnitConfiguration(autoActivate: true)) { simulator, clock, port in
            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                _ = try await session.start()
                _ = try await session.call("RegisterAppInterface", SimulatorEndToEndTests.registration)
                let registered = clock.now()
                #expect(try await Self.parked(simulator) { $0 != nil } == registered + .milliseconds(200))
                clock.advance(by: .milliseconds(199))
                #expect(simulator.snapshot.app(withID: "e2e-app")?.hmiLevel == "NONE")
                clock.advance(by: .milliseconds(1))
                let full = try await session.waitFor("OnHMIStatus") { $0.parameters["hmiLevel"] == "FULL" }
                #expect(full.parameters["audioStreamingState"] == "AUDIBLE")
            }
        }
    }

    @Test("Reassembly: a First Frame left alone is dropped 10 s later, when the loop wakes for it")
    func reassemblyExpiry() async throws {
        try await Self.withSimulator { simulator, clock, port in
            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                _ = try await session.start()
                _ = try await session.call("RegisterAppInterface", SimulatorEndToEndTests.registration)
                #expect(try await Self.parked(simulator) { _ in true } == nil)
                var counts = ByteBuffer()
                counts.writeInteger(UInt32(5000), endianness: .big)
                counts.writeInteger(UInt32(5), endianness: .big)
                let header = SDLFrameHeader(
                    version: 5, frameType: .first, serviceType: .rpc, sessionID: session.sessionID, dataSize: 8, messageID: 99)
                try await session.write([SDLFrame(header: header, payload: counts)])
                let deadline = try await Self.parked(simulator) { $0 != nil }
                let sent = try #require(deadline) - .seconds(10)
                #expect(simulator.snapshot.connections.values.map(\.assembler.activeCount) == [1])

                clock.advance(to: sent + .seconds(10))
                #expect(try await Self.parked(simulator) { $0 == nil } == nil)
                #expect(simulator.snapshot.connections.values.map(\.assembler.activeCount) == [0])
            }
        }
    }

    @Test("A control call that sets an earlier timer wakes the loop, which then sleeps until that timer")
    func controlCallWakes() async throws {
        try await Self.withSimulator(HeadUnitConfiguration(autoActivate: true)) { simulator, clock, port in
            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                _ = try await session.start()
                _ = try await session.call("RegisterAppInterface", SimulatorEndToEndTests.registration)
                clock.advance(by: .milliseconds(200))
                _ = try await session.waitFor("OnHMIStatus") { $0.parameters["hmiLevel"] == "FULL" }
                #expect(try await Self.parked(simulator) { $0 == nil } == nil)
                let now = clock.now()
                try simulator.perform { unit, now in
                    (
                        (),
                        try unit.burst(
                            "OnDriverDistraction", parameters: ["state": "DD_ON"], count: 2, ratePerSecond: 10, appID: "e2e-app", now: now)
                    )
                }
                // The first is due at once: the call rang the sleeping loop, which sent it.
                _ = try await session.waitFor("OnDriverDistraction") { $0.parameters["state"] == "DD_ON" }
                #expect(try await Self.parked(simulator) { $0 != nil } == now + .milliseconds(100))
                clock.advance(by: .milliseconds(100))
                _ = try await session.waitFor("OnDriverDistraction") { $0.parameters["state"] == "DD_ON" }
                #expect(try await Self.parked(simulator) { $0 == nil } == nil)
            }
        }
    }
}
