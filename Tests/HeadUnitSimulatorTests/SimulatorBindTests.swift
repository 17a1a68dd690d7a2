import Logging
import NIOCore
import SDLProtocol
import TestSupport
import Testing

@testable import HeadUnitSimulator

/// Bind first, serve second: the caller learns the real ports before serving, and the simulator
/// serves the very sockets it bound.
@Suite("Simulator: bind, then serve", .timeLimit(.minutes(1)))
struct SimulatorBindTests {
    @Test("bind reports the real ports; an app that connects before run is served once run starts")
    func bindThenRun() async throws {
        let simulator = SimulatedHeadUnit(logger: Logger.test("test"))
        let bound = try await simulator.bind([.tcp(), .webSocket()])
        #expect(bound.listeners == [.tcp(), .webSocket()])
        #expect(bound.ports.count == 2)
        #expect(bound.ports.allSatisfy { $0 > 0 })
        #expect(bound.ports[0] != bound.ports[1])
        #expect(bound.addresses.map(\.port) == bound.ports)

        // The socket listens already: the connection waits in the backlog until run accepts it.
        let client = try await RawSDLClient(port: bound.ports[0])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run(bound) }
            try await client.withSession { session in
                let ack = try await session.start()
                #expect(ack.protocolVersion == "5.4.0")
            }
            group.cancelAll()
        }
    }

    @Test("Listeners are served once; closed ones free their port and cannot be served")
    func servedOnce() async throws {
        let simulator = SimulatedHeadUnit(logger: Logger.test("test"))
        // A port outside the ephemeral range (32768–60999 on Linux), so that the other tests'
        // port-0 binds, running in parallel, cannot take it between the close and the rebind.
        var first: SimulatedHeadUnit.BoundListeners?
        for _ in 0..<50 where first == nil {
            first = try? await simulator.bind([.tcp(port: Int.random(in: 20_000..<30_000))])
        }
        let bound = try #require(first, "no free port between 20000 and 30000")
        let port = bound.ports[0]
        await bound.close()
        await #expect(throws: SimulatedHeadUnit.AlreadyServed.self) { try await simulator.run(bound) }

        // The port is free again: bind it, serve it, stop, and it is free once more.
        let again = try await simulator.bind([.tcp(port: port)])
        #expect(again.ports == [port])
        await #expect(throws: CancellationError.self) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await simulator.run(again) }
                group.cancelAll()
                try await group.waitForAll()
            }
        }
        await #expect(throws: SimulatedHeadUnit.AlreadyServed.self) { try await simulator.run(again) }
        let third = try await simulator.bind([.tcp(port: port)])
        await third.close()
    }

    @Test("A listener that cannot be bound fails bind")
    func bindFailure() async throws {
        let simulator = SimulatedHeadUnit(logger: Logger.test("test"))
        let taken = try await simulator.bind([.tcp()])
        await #expect(throws: (any Error).self) { _ = try await simulator.bind([.tcp(), .tcp(port: taken.ports[0])]) }
        await taken.close()
    }
}
