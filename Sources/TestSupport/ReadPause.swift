import Synchronization

/// Stops a reader and lets it go on: a ``WireTap`` whose `beforeRead` awaits ``waitWhilePaused()``
/// is a head unit that stops reading the app while paused, so the app's bytes pile up in the
/// kernel and then in the app's channel (a slow head-unit link).
public final class ReadPause: Sendable {
    private struct State {
        var paused = false
        var next = 0
        var resumers: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Stops the reader before its next read.
    public func pause() { state.withLock { $0.paused = true } }

    /// How many readers wait now.
    public var waiting: Int { state.withLock { $0.resumers.count } }

    /// Lets the reader read again.
    public func resume() {
        let resumers = state.withLock { state in
            state.paused = false
            defer { state.resumers = [:] }
            return Array(state.resumers.values)
        }
        for resumer in resumers { resumer.resume() }
    }

    /// Returns at once unless paused; then once resumed, or once the waiting task is cancelled
    /// (a test that failed or ran out of time while paused ends instead of hanging its tap).
    public func waitWhilePaused() async {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waits = state.withLock { state in
                    guard state.paused, !Task.isCancelled else { return false }
                    state.resumers[id] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.resumers.removeValue(forKey: id) }?.resume()
        }
    }
}
