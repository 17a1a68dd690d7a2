import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import TestSupport
import Testing

/// Simulated head units on 127.0.0.1 (port 0) and an ``SDLAppRegistry`` running against them.
enum RegistryHarness {
    static func simulator() -> SimulatedHeadUnit {
        SimulatedHeadUnit(configuration: HeadUnitConfiguration(autoActivate: true, timeScale: 0.01), logger: Logger.test("test"))
    }

    static func app(_ name: String, id: String, vrSynonyms: [String] = []) -> SDLAppConfiguration {
        SDLAppConfiguration(appName: name, appID: id, vrSynonyms: vrSynonyms)
    }

    /// Runs `count` simulators and a registry; `body` gets the registry and each simulator with
    /// its port. Afterwards shuts the registry down and returns once its `run()` returned.
    static func run(
        simulators count: Int,
        _ body: @Sendable (SDLAppRegistry, [(unit: SimulatedHeadUnit, port: Int)]) async throws -> Void
    ) async throws {
        let registry = SDLAppRegistry(logger: Logger.test("test"))
        try await withThrowingTaskGroup(of: Bool.self) { group in
            var units: [(unit: SimulatedHeadUnit, port: Int)] = []
            for _ in 0..<count {
                let unit = simulator()
                let (ports, continuation) = AsyncStream<Int>.makeStream()
                group.addTask {
                    try await unit.run(host: "127.0.0.1", port: 0) { address in
                        continuation.yield(address.port ?? 0)
                        continuation.finish()
                    }
                    return false
                }
                var iterator = ports.makeAsyncIterator()
                units.append((unit, try #require(await iterator.next())))
            }
            group.addTask {
                await registry.run()
                return true
            }
            try await body(registry, units)
            await registry.shutdown()
            var returned = false
            while let registryReturned = try await group.next() {
                if registryReturned {
                    returned = true
                    break
                }
            }
            #expect(returned)
            group.cancelAll()
        }
    }

    /// Waits until `session` is registered; `false` if it closed first.
    static func registered(_ session: SDLAppSession) async -> Bool {
        await waitFor(.registered, session)
    }

    /// Waits for the connection event `wanted` (bounded: the stream ends when the session closes).
    static func waitFor(_ wanted: SDLAppSession.ConnectionState, _ session: SDLAppSession) async -> Bool {
        for await event in session.events {
            if case .connection(let state, _) = event {
                if state == wanted { return true }
                if state == .closed { return false }
            }
        }
        return session.connectionState == wanted
    }

    /// How many RegisterAppInterface requests the head unit received.
    static func registrations(_ unit: SimulatedHeadUnit) -> Int {
        unit.snapshot.log.entries.filter { $0.direction == .fromApp && $0.function == "RegisterAppInterface" }.count
    }
}
