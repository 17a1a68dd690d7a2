import TestSupport
import Testing

/// The slow-link tests' ``ReadPause``: a paused reader waits until resumed, and a reader whose
/// task is cancelled (its test failed or ran out of time) stops waiting instead of hanging the
/// tap and the test run with it.
@Suite("ReadPause", .timeLimit(.minutes(1)))
struct ReadPauseTests {
    @Test("Not paused: no wait. Paused: waits until resumed, or until its task is cancelled")
    func pauseResumeCancel() async {
        let pause = ReadPause()
        await pause.waitWhilePaused()

        pause.pause()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await pause.waitWhilePaused() }
            await Self.untilWaiting(pause)
            #expect(pause.waiting == 1, "the reader waits while paused")
            pause.resume()
        }
        #expect(pause.waiting == 0)

        // Cancelled while it waits (not before: that returns without waiting). Without the
        // cancellation handler this group never ends (and the time limit fails it).
        pause.pause()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await pause.waitWhilePaused() }
            await Self.untilWaiting(pause)
            #expect(pause.waiting == 1, "the reader waits while paused")
            group.cancelAll()
        }
        #expect(pause.waiting == 0)
    }

    /// Yields until a reader waits, at most 100,000 times.
    static func untilWaiting(_ pause: ReadPause) async {
        for _ in 0..<100_000 where pause.waiting == 0 { await Task.yield() }
    }
}
