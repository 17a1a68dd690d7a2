import HeadUnitSimulator
import Logging
import SDLClient
import SDLConformance
import SDLProtocol
import SDLTransport
import TestSupport
import Testing

/// A registration after a cut link races the head unit's clean-up of the old one (SDL Core
/// answers APPLICATION_REGISTERED_ALREADY until it has handled the close): it is tried again
/// within a bounded, scaled wait, and only then. The simulator answers every RegisterAppInterface
/// APPLICATION_REGISTERED_ALREADY through a fault.
@Suite("Conformance: registering again after a cut", .timeLimit(.minutes(1)))
struct ConformanceRegistrationRetryTests {
    static func refusing(_ body: @escaping @Sendable (SDLTransportAddress, SimulatedHeadUnit) async throws -> Void) async throws {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(timeScale: 0.01), logger: Logger.test("test"))
        try simulator.perform { unit, _ in
            (try unit.addFault(Fault(function: "RegisterAppInterface", resultCode: "APPLICATION_REGISTERED_ALREADY")), [])
        }
        try await simulator.withListening { port in try await body(try SDLTransportAddress("tcp://127.0.0.1:\(port)"), simulator) }
    }

    /// The RegisterAppInterface requests the head unit has received so far.
    static func registrations(_ simulator: SimulatedHeadUnit) -> Int {
        simulator.perform { unit, _ in
            (
                unit.log.entries.filter { $0.direction == .fromApp && $0.function == "RegisterAppInterface" && $0.rpcType == .request }
                    .count, []
            )
        }
    }

    @Test(
        "A first registration refused APPLICATION_REGISTERED_ALREADY is tried once; after a cut it is tried again for 10 s × the scale"
    )
    func boundedRetry() async throws {
        try await Self.refusing { address, simulator in
            let runner = ConformanceRunner(address: address, driver: nil, timeoutScale: 1, logger: Logger.test("test"))
            let first = await runner.run([
                ConformanceCase("a.first", "registers") { context in _ = try await context.register(context.app) }
            ])
            .results[0]
            #expect(Self.registrations(simulator) == 1, "a first registration is not tried again")
            let afterCut = await runner.run([
                ConformanceCase("a.cut", "registers after a cut") { context in _ = try await context.register(context.app, afterCut: true) }
            ]).results[0]
            for result in [first, afterCut] {
                #expect(result.outcome == .fail)
                #expect(result.failureCode == "link")
                #expect(result.reason?.contains("APPLICATION_REGISTERED_ALREADY") == true, "\(result)")
            }
            // Again and again (every 250 ms), and only within the scaled 10 s.
            #expect(Self.registrations(simulator) > 2, "after a cut the registration is tried again")
            #expect(afterCut.duration >= .seconds(9), "\(afterCut.duration)")
        }
    }
}
