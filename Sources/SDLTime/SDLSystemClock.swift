import NIOCore
import NIOPosix

/// The clock of production: `NIODeadline.now()` (the monotonic uptime clock the state machines'
/// deadlines are on) and NIO event-loop timers, which cost nothing while none is scheduled.
public struct SDLSystemClock: SDLClock {
    private let eventLoop: any EventLoop

    /// Timers run on `eventLoop` (one of NIO's shared singleton loops by default); their bodies
    /// only take a lock and resume continuations.
    public init(eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()) {
        self.eventLoop = eventLoop
    }

    public func now() -> NIODeadline {
        .now()
    }

    public func schedule(at deadline: NIODeadline, _ body: @escaping @Sendable () -> Void) -> SDLScheduledWakeup {
        let task = eventLoop.scheduleTask(deadline: deadline, body)
        return SDLScheduledWakeup { task.cancel() }
    }
}
