import Logging
import SDLConformance
import SDLTransport
import Testing

/// The runner's own rules, with cases that never touch the head unit: a pass, a failure with its
/// difference, a skip, a driver case without a driver, and a case past its deadline.
@Suite("Conformance runner")
struct ConformanceRunnerTests {
    @Test("Each outcome is recorded with its reason, code and difference; a case past its deadline fails timedOut and the run goes on")
    func outcomes() async throws {
        let (never, keep) = AsyncStream<Void>.makeStream()
        defer { keep.finish() }
        let cases = [
            ConformanceCase("a.pass", "passes") { _ in },
            ConformanceCase("a.fail", "fails") { context in
                try context.expect("resultCode", "REJECTED", equals: "SUCCESS")
            },
            ConformanceCase("a.skip", "skips") { _ in throw ConformanceSkip("not here") },
            ConformanceCase("a.driver", "needs the driver", needsDriver: true) { _ in Issue.record("ran without a driver") },
            ConformanceCase("a.hang", "never ends", deadline: .seconds(10)) { _ in
                for await _ in never {}
            },
            ConformanceCase("a.after", "runs after the hung one") { _ in },
        ]
        let runner = ConformanceRunner(
            address: try SDLTransportAddress("tcp://127.0.0.1:1"), driver: nil, timeoutScale: 0.02,
            logger: Logger(label: "test"))
        let report = await runner.run(cases)
        #expect(report.results.map(\.outcome) == [.pass, .fail, .skip, .skip, .fail, .pass])
        let failed = report.results[1]
        #expect(failed.reason == "resultCode")
        #expect(failed.failureCode == "unexpected")
        #expect(failed.difference == "expected SUCCESS, got REJECTED")
        #expect(report.results[2].reason == "not here")
        #expect(report.results[3].reason == ConformanceSkip.noDriver.reason)
        let hung = report.results[4]
        #expect(hung.failureCode == "timedOut")
        #expect(hung.reason == "the case did not happen within 0.2 s")
        #expect(hung.duration >= .milliseconds(200))
        #expect(!report.passed)
        #expect(report.driver == nil)
    }
}
