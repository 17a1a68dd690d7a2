import NIOCore

/// The injected clock every driver runs on: `SDLClient`'s connection timers and reconnection
/// backoff, and the head-unit simulator's timer loop. The state machines take the time as a
/// `NIODeadline` input and report their next deadline; a driver reads ``now()`` and keeps one
/// wake-up at that deadline with ``schedule(at:_:)``, or sleeps until it with ``sleep(until:)``
/// (an injected clock, as hummingbird's connection state machine and the
/// connection pool take theirs).
///
/// Production uses ``SDLSystemClock`` (NIO's monotonic uptime clock and event-loop timers);
/// tests use ``SDLManualClock`` and move time by hand instead of waiting.
public protocol SDLClock: Sendable {
    /// The time now, on the scale of the state machines' deadlines.
    func now() -> NIODeadline

    /// Calls `body` once, at `deadline` or soon after, unless the returned wake-up is cancelled
    /// first. `body` never runs inside this call, so a caller may hold a lock while scheduling.
    func schedule(at deadline: NIODeadline, _ body: @escaping @Sendable () -> Void) -> SDLScheduledWakeup
}

/// A wake-up scheduled on an ``SDLClock``; ``cancel()`` stops it if it has not run yet.
public struct SDLScheduledWakeup: Sendable {
    private let cancelAction: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancelAction = cancel
    }

    /// Stops the wake-up; it may already be running, so its body must tolerate running late.
    public func cancel() {
        cancelAction()
    }
}

extension SDLClock {
    /// Sleeps until ``now()`` has reached `deadline` (returning at once if it has). Throws
    /// `CancellationError` as soon as the task is cancelled, without waiting for the deadline.
    public func sleep(until deadline: NIODeadline) async throws {
        try await SDLSleeper().sleep(until: deadline, on: self)
    }

    /// Sleeps for `amount` from ``now()``; see ``sleep(until:)``.
    public func sleep(for amount: TimeAmount) async throws {
        try await sleep(until: now() + amount)
    }
}
