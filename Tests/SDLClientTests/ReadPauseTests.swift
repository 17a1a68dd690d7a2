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
            pause.resume()
        }

        // Without the cancellation handler this group never ends (and the time limit fails it).
        pause.pause()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await pause.waitWhilePaused() }
            group.cancelAll()
        }
    }
}
