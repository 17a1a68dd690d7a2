import Synchronization

/// The event WebSockets that have not yet sent their close, so that graceful shutdown can wait
/// until each has closed with 1001 (going away, RFC 6455 §7.4.1) before the HTTP server is told
/// to stop: the server's own shutdown closes every WebSocket still open with 1000
/// (hummingbird-websocket), which told a client nothing of the gateway leaving.
public final class OpenWebSockets: Sendable {
    private struct State: Sendable {
        var open = 0
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// One WebSocket, counted open until ``Entry/closed()``.
    public final class Entry: Sendable {
        private let sockets: OpenWebSockets
        private let done = Atomic<Bool>(false)

        fileprivate init(_ sockets: OpenWebSockets) {
            self.sockets = sockets
        }

        /// The WebSocket sent its close, or ended: counted once, however often it is called.
        public func closed() {
            guard done.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
            sockets.left()
        }
    }

    /// Counts a WebSocket open.
    public func opened() -> Entry {
        state.withLock { $0.open += 1 }
        return Entry(self)
    }

    public var count: Int { state.withLock { $0.open } }

    private func left() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open -= 1
            guard state.open == 0 else { return [] }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once no WebSocket is open, or when the task is cancelled.
    public func allClosed() async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.open > 0, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns once no WebSocket is open, or after `limit` (a client that does not read holds its
    /// close frame back).
    public func allClosed(within limit: Duration) async {
        _ = await waitWithin(limit) { () async -> Void? in await self.allClosed() }
    }
}
