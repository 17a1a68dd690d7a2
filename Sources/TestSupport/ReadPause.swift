import Synchronization

/// Stops a reader and lets it go on: a ``WireTap`` whose `beforeRead` awaits ``waitWhilePaused()``
/// is a head unit that stops reading the app while paused, so the app's bytes pile up in the
/// kernel and then in the app's channel (a slow head-unit link).
public final class ReadPause: Sendable {
    private struct State {
        var paused = false
        var resumers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Stops the reader before its next read.
    public func pause() { state.withLock { $0.paused = true } }

    /// Lets the reader read again.
    public func resume() {
        state.withLock { state in
            state.paused = false
            for resumer in state.resumers { resumer.resume() }
            state.resumers = []
        }
    }

    /// Returns at once unless paused; then once resumed.
    public func waitWhilePaused() async {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.paused { state.resumers.append(continuation) } else { continuation.resume() }
            }
        }
    }
}
