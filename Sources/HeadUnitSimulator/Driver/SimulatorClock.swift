import NIOCore

/// The time of a ``SimulatedHeadUnit``: the `now` its ``HeadUnit`` is given, and how its driver
/// sleeps until the head unit's next deadline. ``SystemSimulatorClock`` runs in real time;
/// ``ManualSimulatorClock`` moves only when a test advances it.
public protocol SimulatorClock: Sendable {
    /// The current time.
    var now: NIODeadline { get }
    /// Returns once ``now`` has reached `deadline` (at once if it has); throws
    /// `CancellationError` when the task is cancelled first.
    func sleep(until deadline: NIODeadline) async throws
}

/// The monotonic system clock (`NIODeadline.now()`).
public struct SystemSimulatorClock: SimulatorClock {
    public init() {}

    public var now: NIODeadline { .now() }

    public func sleep(until deadline: NIODeadline) async throws {
        let wait = deadline - .now()
        guard wait > .zero else { return }
        try await Task.sleep(for: .nanoseconds(wait.nanoseconds))
    }
}
