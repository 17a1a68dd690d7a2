import NIOCore

/// A Swift task executor that runs its jobs on one SwiftNIO event loop (SE-0417).
///
/// A task that prefers it (`withTaskExecutorPreference`) runs its nonisolated code on that loop,
/// and its child tasks too: a task that reads a channel on the channel's own loop is resumed by
/// NIO's read without waking another thread.
public final class EventLoopTaskExecutor: TaskExecutor {
    public let eventLoop: any EventLoop

    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
