import NIOCore
import SDLTime
import Synchronization
import Testing

@Suite("Clocks: manual and system", .timeLimit(.minutes(1)))
struct ClockTests {
    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test("Advancing runs due wake-ups in deadline order, each at its deadline, including those scheduled on the way")
    func manualOrder() {
        let clock = SDLManualClock()
        let start = clock.now()
        let log = Log()
        _ = clock.schedule(at: start + .seconds(3)) { log.append("3 at \(clock.now() - start)") }
        _ = clock.schedule(at: start + .seconds(1)) {
            log.append("1 at \(clock.now() - start)")
            _ = clock.schedule(at: start + .seconds(2)) { log.append("2 at \(clock.now() - start)") }
        }
        let cancelled = clock.schedule(at: start + .milliseconds(1_500)) { log.append("cancelled") }
        cancelled.cancel()
        _ = clock.schedule(at: start + .seconds(10)) { log.append("10") }
        clock.advance(by: .seconds(5))
        #expect(log.all == ["1 at \(TimeAmount.seconds(1))", "2 at \(TimeAmount.seconds(2))", "3 at \(TimeAmount.seconds(3))"])
        #expect(clock.now() == start + .seconds(5))
        #expect(clock.scheduledDeadlines == [start + .seconds(10)])
    }

    @Test("A sleep ends when the clock passes its deadline, at once when woken first, and throws when cancelled")
    func sleeps() async throws {
        let clock = SDLManualClock()
        let deadline = clock.now() + .seconds(30)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await clock.sleep(until: deadline) }
            await clock.waitUntilScheduled { $0 == [deadline] }
            clock.advance(by: .seconds(30))
            try await group.next()
        }
        #expect(clock.scheduledDeadlines.isEmpty)
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await clock.sleep(for: .seconds(60)) }
            await clock.waitUntilScheduled { !$0.isEmpty }
            group.cancelAll()
            await #expect(throws: CancellationError.self) { try await group.next() }
        }
        #expect(clock.scheduledDeadlines.isEmpty)
    }

    @Test("A sleep until a deadline the clock has reached returns at once and leaves nothing scheduled")
    func sleepUntilPast() async throws {
        let clock = SDLManualClock()
        let start = clock.now()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: start + .seconds(1))
        try await clock.sleep(until: clock.now())
        #expect(clock.scheduledDeadlines.isEmpty)
    }

    @Test("The system clock's wake-up runs on its own, not before its deadline; a cancelled one never runs", .timeLimit(.minutes(1)))
    func system() async {
        let clock = SDLSystemClock()
        let log = Log()
        // 100 ms: the thread may be preempted between schedule and cancel on a loaded machine (a
        // 1 ms deadline was reached first in a full run); the one awaited is due 50 ms after it.
        let cancelled = clock.schedule(at: clock.now() + .milliseconds(100)) { log.append("cancelled") }
        cancelled.cancel()
        let deadline = clock.now() + .milliseconds(150)
        let ranAt = await withCheckedContinuation { (continuation: CheckedContinuation<NIODeadline, Never>) in
            _ = clock.schedule(at: deadline) { continuation.resume(returning: clock.now()) }
        }
        #expect(ranAt >= deadline)
        // The cancelled wake-up was due before the one that ran: had it not been cancelled, it would be in the log.
        #expect(log.all.isEmpty)
    }
}
