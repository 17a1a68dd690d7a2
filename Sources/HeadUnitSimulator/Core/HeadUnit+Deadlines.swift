import HeadUnitModel
import NIOCore
import SDLProtocol

/// When the head unit next has something to do on its own, so that its driver sleeps until then
/// and no longer: nothing due means no deadline, and an idle simulator never wakes.
extension HeadUnit {
    /// The earliest time at which ``advance(to:)`` has something to do, or `nil` when nothing
    /// will happen until the next input (a frame, a connection, a control call). It covers every
    /// timed behaviour:
    /// - the timer table: auto-activation, Alert/Speak/Slider/ScrollableMessage/PerformInteraction
    ///   answers, audio pass-thru chunks and its end, delayed responses and paced bursts (faults);
    /// - the heartbeat monitor of every monitored session (docs/protocol.md §d);
    /// - multi-frame reassemblies that go quiet (Core's `ExpectedConsecutiveFramesTimeout`, §a);
    /// - the next vehicle data sample (10 Hz), only while an app would receive it.
    ///
    /// The driver must recompute it after every input: any input may bring it forward.
    public var nextDeadline: NIODeadline? {
        var next = timers.nextDeadline.earliest(nextHeartbeatDeadline)
        for connection in connections.values {
            next = next.earliest(connection.assembler.nextExpiry)
        }
        return next.earliest(nextVehicleSample)
    }

    /// The next vehicle data sample, while an app would receive something from it: one
    /// subscribed to vehicle data, or to buttons when a trace replays button events. Otherwise
    /// the feed waits and catches up when read (``receive(_:on:now:)``, ``advance(to:)``).
    var nextVehicleSample: NIODeadline? {
        guard vehicle.pausedAt == nil else { return nil }
        let observed: Bool
        if vehicle.drive != nil {
            observed = apps.values.contains { !$0.vehicleDataSubscriptions.isEmpty }
        } else if let replayer = vehicle.replayer, !replayer.isFinished {
            observed = apps.values.contains { !$0.vehicleDataSubscriptions.isEmpty || !$0.buttonSubscriptions.isEmpty }
        } else {
            observed = false
        }
        guard observed else { return nil }
        // Never sampled yet: due at once.
        return vehicle.nextSample ?? .distantPast
    }
}
