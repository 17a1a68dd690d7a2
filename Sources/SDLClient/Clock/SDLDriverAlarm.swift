import NIOCore
import SDLTime

/// A driver's one wake-up, kept at its state machine's complete next deadline. It lives in the
/// driver's locked state and is updated in the same critical section as every change of the
/// machine, so it never misses an earlier deadline a concurrent input made:
///
/// - an earlier deadline (a new request, a frame that arms a timer) moves the wake-up earlier;
/// - no deadline cancels it: an idle session has nothing scheduled and costs nothing;
/// - a later deadline leaves it: it fires early once, the machine finds nothing due, and the
///   driver's update schedules the real one. This saves rescheduling on every message when a
///   heartbeat timer moves forward with each send.
struct SDLDriverAlarm: Sendable {
    private var scheduled: (deadline: NIODeadline, generation: UInt64, wakeup: SDLScheduledWakeup)?
    private var generation: UInt64 = 0

    /// The deadline of the armed wake-up, if any.
    var deadline: NIODeadline? { scheduled?.deadline }

    /// Moves the wake-up for a machine whose next deadline is now `deadline`. `fire` gets the
    /// generation to pass back to ``fired(generation:)``.
    mutating func update(
        to deadline: NIODeadline?, clock: any SDLClock, fire: @escaping @Sendable (UInt64) -> Void
    ) {
        guard let deadline else {
            scheduled?.wakeup.cancel()
            scheduled = nil
            return
        }
        if let scheduled, scheduled.deadline <= deadline { return }
        scheduled?.wakeup.cancel()
        generation &+= 1
        let generation = self.generation
        scheduled = (deadline, generation, clock.schedule(at: deadline) { fire(generation) })
    }

    /// The wake-up of `generation` ran: it is no longer armed (a stale one changes nothing).
    mutating func fired(generation: UInt64) {
        if scheduled?.generation == generation { scheduled = nil }
    }

    /// Cancels the wake-up (the driver ended).
    mutating func cancel() {
        scheduled?.wakeup.cancel()
        scheduled = nil
    }
}
