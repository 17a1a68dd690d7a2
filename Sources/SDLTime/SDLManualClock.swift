import NIOCore
import Synchronization

/// A clock that moves only when told to, for tests: ``advance(by:)`` runs every wake-up that
/// falls due on the way, in deadline order, each with ``now()`` at its deadline, before it
/// returns. A test drives timers, request deadlines and reconnection backoff by moving time
/// instead of waiting for it; ``waitUntilScheduled(_:)`` waits for a driver to have armed the
/// wake-up it is about to move past.
public final class SDLManualClock: SDLClock {
    private struct Scheduled {
        var deadline: NIODeadline
        var body: @Sendable () -> Void
    }

    private struct Waiter {
        var condition: @Sendable ([NIODeadline]) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: NIODeadline
        var nextID: UInt64 = 0
        var scheduled: [UInt64: Scheduled] = [:]
        var waiters: [UInt64: Waiter] = [:]

        var deadlines: [NIODeadline] { scheduled.values.map(\.deadline).sorted() }

        /// Removes and returns the waiters whose condition now holds.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !waiters.isEmpty else { return [] }
            let deadlines = self.deadlines
            let ready = waiters.filter { $0.value.condition(deadlines) }
            for id in ready.keys { waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
    }

    private let state: Mutex<State>

    public init(now: NIODeadline = .uptimeNanoseconds(1_000_000_000)) {
        self.state = Mutex(State(now: now))
    }

    public func now() -> NIODeadline {
        state.withLock { $0.now }
    }

    /// The deadlines of the wake-ups not yet run or cancelled, earliest first.
    public var scheduledDeadlines: [NIODeadline] {
        state.withLock { $0.deadlines }
    }

    public func schedule(at deadline: NIODeadline, _ body: @escaping @Sendable () -> Void) -> SDLScheduledWakeup {
        let (id, ready) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.scheduled[id] = Scheduled(deadline: deadline, body: body)
            return (id, state.satisfiedWaiters())
        }
        ready.forEach { $0.resume() }
        return SDLScheduledWakeup { [self] in
            let ready = state.withLock { state in
                state.scheduled[id] = nil
                return state.satisfiedWaiters()
            }
            ready.forEach { $0.resume() }
        }
    }

    /// Moves time forward by `amount`; see ``advance(to:)``.
    public func advance(by amount: TimeAmount) {
        advance(to: now() + amount)
    }

    /// Moves time to `deadline` (never backwards), running each wake-up due by then in deadline
    /// order with the clock at its deadline, including wake-ups the bodies schedule on the way.
    public func advance(to deadline: NIODeadline) {
        while true {
            let (body, ready) = state.withLock { state -> ((@Sendable () -> Void)?, [CheckedContinuation<Void, Never>]) in
                let due = state.scheduled.filter { $0.value.deadline <= deadline }
                    .min { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
                guard let (id, scheduled) = due else {
                    state.now = max(state.now, deadline)
                    return (nil, [])
                }
                state.scheduled[id] = nil
                state.now = max(state.now, scheduled.deadline)
                return (scheduled.body, state.satisfiedWaiters())
            }
            ready.forEach { $0.resume() }
            guard let body else { return }
            body()
        }
    }

    /// Waits until the scheduled deadlines (earliest first) satisfy `condition`, e.g.
    /// `{ !$0.isEmpty }` for "a driver armed a wake-up". Returns at once when they already do,
    /// and when the task is cancelled.
    public func waitUntilScheduled(_ condition: @escaping @Sendable ([NIODeadline]) -> Bool) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let satisfied = state.withLock { state -> Bool in
                    if condition(state.deadlines) || Task.isCancelled { return true }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return false
                }
                if satisfied { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume()
        }
    }
}
