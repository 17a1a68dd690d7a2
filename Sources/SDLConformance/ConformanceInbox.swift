import SDLProtocol
import Synchronization

/// The notifications the head unit sent the app under test, in order (the latest
/// ``capacity``: a head unit that floods them does not grow the check's memory), and the cases
/// waiting for one. A case takes a ``mark()`` before it acts and waits for a notification after
/// the mark, so one that arrives before the wait begins is not missed.
final class ConformanceInbox: Sendable {
    struct Notification: Sendable {
        var name: String
        var parameters: SDLJSON
    }

    private struct Waiter: Sendable {
        var name: String
        var after: Int
        var matches: @Sendable (SDLJSON) -> Bool
        var continuation: CheckedContinuation<SDLJSON, any Error>
    }

    private struct State: Sendable {
        /// The latest notifications; the first of them is number `dropped`.
        var received: [Notification] = []
        var dropped = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0

        var count: Int { dropped + received.count }
    }

    /// How many notifications are kept for a wait that begins after them.
    static let capacity = 4096

    private let state = Mutex(State())

    /// How many notifications came so far.
    func mark() -> Int {
        state.withLock { $0.count }
    }

    /// Records one notification and wakes the waiters it matches.
    func record(_ name: String, _ parameters: SDLJSON) {
        let woken = state.withLock { state -> [(CheckedContinuation<SDLJSON, any Error>)] in
            state.received.append(Notification(name: name, parameters: parameters))
            if state.received.count > Self.capacity {
                let excess = state.received.count - Self.capacity
                state.received.removeFirst(excess)
                state.dropped += excess
            }
            let index = state.count - 1
            var woken: [CheckedContinuation<SDLJSON, any Error>] = []
            for (id, waiter) in state.waiters where waiter.name == name && waiter.after <= index && waiter.matches(parameters) {
                state.waiters[id] = nil
                woken.append(waiter.continuation)
            }
            return woken
        }
        for continuation in woken { continuation.resume(returning: parameters) }
    }

    /// The first notification `name` at or after `mark` that `matches`, waiting for it; ends with
    /// `CancellationError` when the calling task is cancelled.
    func first(_ name: String, after mark: Int, where matches: @escaping @Sendable (SDLJSON) -> Bool) async throws -> SDLJSON {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SDLJSON, any Error>) in
                let found = state.withLock { state -> Result<SDLJSON, any Error>? in
                    // Checked under the lock the cancellation handler takes: one of the two sees the other.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let kept = state.received.dropFirst(max(0, mark - state.dropped))
                    if let hit = kept.first(where: { $0.name == name && matches($0.parameters) }) {
                        return .success(hit.parameters)
                    }
                    state.waiters[id] = Waiter(name: name, after: mark, matches: matches, continuation: continuation)
                    return nil
                }
                if let found { continuation.resume(with: found) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}

/// Runs `body`, failing with ``ConformanceFailure/Code/timedOut`` (`what` did not happen) when
/// it takes longer than `limit`; `body` is cancelled then.
func withDeadline<Value: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw ConformanceFailure(.timedOut, "\(what) did not happen within \(ConformanceTextReport.seconds(limit)) s")
        }
        return value
    }
}
