import NIOCore
import Synchronization

/// One sleep on an ``SDLClock`` that ends at its deadline, when its task is cancelled (throwing
/// `CancellationError`), or when ``wake()`` is called (returning early, e.g. when the session
/// closes during a reconnection backoff). A ``wake()`` before the sleep starts makes it return at
/// once, so there is no window in which a wake-up is lost. A deadline the clock has already
/// reached ends the sleep at once, even when the clock moved past it while the sleep began.
public final class SDLSleeper: Sendable {
    private enum State {
        case idle
        case sleeping(CheckedContinuation<Void, any Error>, SDLScheduledWakeup)
        /// Ended before the sleep started (woken or cancelled): the sleep returns this at once.
        case ended(Result<Void, any Error>)
        case finished
    }

    private let state = Mutex(State.idle)

    public init() {}

    /// Sleeps until `deadline`; returns early after ``wake()``; throws when cancelled.
    public func sleep(until deadline: NIODeadline, on clock: some SDLClock) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wakeup = clock.schedule(at: deadline) { [self] in end(.success(())) }
                let early = state.withLock { state -> Result<Void, any Error>? in
                    switch state {
                    case .idle:
                        state = .sleeping(continuation, wakeup)
                        return nil
                    case .ended(let result):
                        state = .finished
                        return result
                    case .sleeping, .finished:
                        preconditionFailure("an SDLSleeper sleeps once")
                    }
                }
                if let early {
                    wakeup.cancel()
                    continuation.resume(with: early)
                } else if clock.now() >= deadline {
                    // The clock reached the deadline before the wake-up was scheduled (a manual
                    // clock advanced meanwhile, or the deadline was already past): the wake-up
                    // may not run until the clock moves again, so end now.
                    end(.success(()))
                }
            }
        } onCancel: {
            end(.failure(CancellationError()))
        }
    }

    /// Ends the sleep now (or makes the coming sleep return at once).
    public func wake() {
        end(.success(()))
    }

    private func end(_ result: Result<Void, any Error>) {
        let sleeping = state.withLock { state -> (CheckedContinuation<Void, any Error>, SDLScheduledWakeup)? in
            switch state {
            case .idle:
                state = .ended(result)
                return nil
            case .sleeping(let continuation, let wakeup):
                state = .finished
                return (continuation, wakeup)
            case .ended, .finished:
                return nil
            }
        }
        guard let (continuation, wakeup) = sleeping else { return }
        wakeup.cancel()
        continuation.resume(with: result)
    }
}
