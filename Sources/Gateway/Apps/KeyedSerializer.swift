import Synchronization

/// Runs the work of one key one at a time, in arrival order; work of different keys runs at
/// once. `PUT /v1/apps/{id}` serialises on the app id with it, so that concurrent PUTs of one id
/// create one app and the others find it.
///
/// Bounded: at most ``maximumWaiting`` callers wait per key (more are refused with
/// ``GatewayError/Code/tooManyPendingRequests``), and a key is forgotten as soon as nobody runs
/// or waits for it. A waiting caller whose task is cancelled leaves the line at once with
/// ``GatewayError/Code/cancelled``.
final class KeyedSerializer: Sendable {
    private enum Admission: Sendable {
        case granted, full, cancelled
    }

    private struct Waiter: Sendable {
        var token: UInt64
        var continuation: CheckedContinuation<Admission, Never>
    }

    private struct State: Sendable {
        /// A key is present while some caller runs its work; its callers waiting next, in order.
        var lines: [String: [Waiter]] = [:]
        var nextToken: UInt64 = 0
    }

    let maximumWaiting: Int
    private let state = Mutex(State())

    init(maximumWaiting: Int = 32) {
        self.maximumWaiting = maximumWaiting
    }

    /// Keys whose work runs or waits (for tests).
    var activeKeys: Int { state.withLock { $0.lines.count } }

    /// Runs `body` once no earlier caller of `key` runs its work.
    func run<Result: Sendable>(_ key: String, _ body: () async throws(GatewayError) -> Result) async throws(GatewayError) -> Result {
        switch await enter(key) {
        case .granted: break
        case .full: throw GatewayError(.tooManyPendingRequests, "\(maximumWaiting) requests for \(key) are waiting already")
        case .cancelled: throw GatewayError(.cancelled, "the request for \(key) was cancelled while it waited for an earlier one")
        }
        defer { leave(key) }
        return try await body()
    }

    private func enter(_ key: String) async -> Admission {
        let token = state.withLock { state in
            state.nextToken += 1
            return state.nextToken
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Admission, Never>) in
                // Read in the critical section the cancellation handler also takes: either the
                // handler finds the waiter, or this sees the cancellation.
                let admission = state.withLock { state -> Admission? in
                    guard !Task.isCancelled else { return .cancelled }
                    guard var line = state.lines[key] else {
                        state.lines[key] = []
                        return .granted
                    }
                    guard line.count < maximumWaiting else { return .full }
                    line.append(Waiter(token: token, continuation: continuation))
                    state.lines[key] = line
                    return nil
                }
                if let admission { continuation.resume(returning: admission) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.lines[key]?.firstIndex(where: { $0.token == token }) else { return nil }
                return state.lines[key]?.remove(at: index)
            }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    /// The caller running `key`'s work is done: the next in line runs, or the key is forgotten.
    private func leave(_ key: String) {
        let next = state.withLock { state -> Waiter? in
            guard var line = state.lines[key], !line.isEmpty else {
                state.lines[key] = nil
                return nil
            }
            let next = line.removeFirst()
            state.lines[key] = line
            return next
        }
        next?.continuation.resume(returning: .granted)
    }
}
