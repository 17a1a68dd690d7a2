import NIOCore
import Synchronization

/// The frames on their way from the connection's critical section to the link's event loop.
/// Every write of the connection goes through here, in the order the state machine numbered
/// the frames: ``enqueue(_:afterwards:)`` appends them and queues one task on the loop unless
/// one is already queued; that task writes everything appended until it runs and flushes once.
///
/// With one request in flight this is the task and the flush per message it was before. With
/// many (64 REST requests on one app), the requests that came while the loop was busy leave in
/// one `write(2)` instead of one task, one loop wake-up and one system call each, and the head
/// unit reads them in one read (BENCHMARKS.md, issue "Performance"). It is NIO's flush
/// coalescing, done where the requests come from other threads.
///
/// Order: a task queued on the loop after an `enqueue` (a close, ``SDLConnection``'s
/// `eventLoop.submit` after a stream batch) runs after the frames of that `enqueue`, because
/// the drain that takes them was queued before it or is the one it queued. The converse does
/// not hold: frames enqueued after a close was queued can join a drain queued before it and
/// leave ahead of the close. ``SDLConnection`` writes nothing after it closes a link (the
/// machine's `closeConnection` is its last action for that link).
final class SDLLinkOutbox: Sendable {
    private struct Pending {
        var buffers: [ByteBuffer] = []
        var afterwards: [@Sendable () -> Void] = []
        /// A drain is queued on the loop and has not taken the buffers yet.
        var drainQueued = false
    }

    let channel: any Channel
    private let pending = Mutex(Pending())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// Appends `buffers` (written in this order, after everything appended before) and
    /// `afterwards`, which runs on the loop once they are written and flushed.
    func enqueue(_ buffers: [ByteBuffer], afterwards: (@Sendable () -> Void)? = nil) {
        pending.withLock { pending in
            pending.buffers.append(contentsOf: buffers)
            if let afterwards { pending.afterwards.append(afterwards) }
            guard !pending.drainQueued else { return }
            pending.drainQueued = true
            // Queued inside the lock, so no later enqueue's close or submit can overtake it.
            channel.eventLoop.execute { self.drain() }
        }
    }

    /// On the loop: writes and flushes everything appended so far, then runs the callbacks.
    private func drain() {
        let (buffers, afterwards) = pending.withLock { pending in
            pending.drainQueued = false
            defer {
                pending.buffers = []
                pending.afterwards = []
            }
            return (pending.buffers, pending.afterwards)
        }
        for bytes in buffers { channel.write(bytes, promise: nil) }
        channel.flush()
        for callback in afterwards { callback() }
    }
}
