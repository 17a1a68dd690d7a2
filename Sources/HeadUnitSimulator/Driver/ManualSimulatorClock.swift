import NIOCore
import Synchronization

/// A ``SimulatorClock`` that moves only when told: tests advance it instead of waiting, so a 7 s
/// heartbeat timeout takes no time and happens exactly when expected.
///
/// ```swift
/// let clock = ManualSimulatorClock()
/// let simulator = SimulatedHeadUnit(clock: clock, logger: logger)
/// // … an app heartbeats, then goes quiet …
/// clock.advance(by: .seconds(7))  // the simulator's Heartbeat is sent now
/// ```
public final class ManualSimulatorClock: SimulatorClock {
    private struct Sleeper {
        var deadline: NIODeadline
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: NIODeadline
        var sleepers: [UInt64: Sleeper] = [:]
        var nextSleeper: UInt64 = 0
    }

    private let state: Mutex<State>

    /// A clock reading `now` until advanced.
    public init(now: NIODeadline = .uptimeNanoseconds(1_000_000_000)) {
        state = Mutex(State(now: now))
    }

    public var now: NIODeadline { state.withLock { $0.now } }

    /// The deadlines of the tasks sleeping on this clock, earliest first.
    public var sleepers: [NIODeadline] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Moves the clock forward by `amount` and wakes the sleepers that are due.
    public func advance(by amount: TimeAmount) {
        precondition(amount >= .zero, "a clock does not go back")
        wake { $0.now = $0.now + amount }
    }

    /// Moves the clock to `deadline` (when later than now) and wakes the sleepers that are due.
    public func advance(to deadline: NIODeadline) {
        wake { $0.now = max($0.now, deadline) }
    }

    private func wake(after move: (inout State) -> Void) {
        let due = state.withLock { state in
            move(&state)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    public func sleep(until deadline: NIODeadline) async throws {
        let id = state.withLock { state in
            defer { state.nextSleeper += 1 }
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let result: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            // Runs after the task is marked cancelled: a sleeper not registered yet sees it above.
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
