import HeadUnitSimulator
import Logging
import SDLClient
import SDLConformance
import SDLTransport
import TestSupport
import Testing

/// A registration after a cut link races the head unit's clean-up of the old one (SDL Core
/// answers APPLICATION_REGISTERED_ALREADY until it has handled the close): it is tried again
/// within a bounded, scaled wait, and only then. The simulator answers every RegisterAppInterface
/// APPLICATION_REGISTERED_ALREADY through a fault.
@Suite("Conformance: registering again after a cut", .timeLimit(.minutes(1)))
struct ConformanceRegistrationRetryTests {
    static func refusing(_ body: @escaping @Sendable (SDLTransportAddress) async throws -> Void) async throws {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(timeScale: 0.01), logger: Logger.test("test"))
        try simulator.perform { unit, _ in
            (try unit.addFault(Fault(function: "RegisterAppInterface", resultCode: "APPLICATION_REGISTERED_ALREADY")), [])
        }
        try await simulator.withListening { port in try await body(try SDLTransportAddress("tcp://127.0.0.1:\(port)")) }
    }

    @Test("A first registration refused APPLICATION_REGISTERED_ALREADY fails at once; after a cut it is tried for 10 s × the scale")
    func boundedRetry() async throws {
        try await Self.refusing { address in
            let runner = ConformanceRunner(address: address, driver: nil, timeoutScale: 0.1, logger: Logger.test("test"))
            let cases = [
                ConformanceCase("a.first", "registers") { context in _ = try await context.register(context.app) },
                ConformanceCase("a.cut", "registers after a cut") { context in
                    _ = try await context.register(context.app, afterCut: true)
                },
            ]
            let report = await runner.run(cases)
            let first = report.results[0]
            let afterCut = report.results[1]
            for result in [first, afterCut] {
                #expect(result.outcome == .fail)
                #expect(result.failureCode == "link")
                #expect(result.reason?.contains("APPLICATION_REGISTERED_ALREADY") == true, "\(result)")
            }
            // Once, without waiting, against again and again for the scaled 10 s.
            #expect(first.duration < .milliseconds(900), "\(first.duration)")
            #expect(afterCut.duration >= .seconds(1), "\(afterCut.duration)")
            #expect(afterCut.duration < .seconds(2.5), "\(afterCut.duration)")
        }
    }
}
