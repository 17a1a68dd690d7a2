import NIOCore
import Synchronization

/// Whether the link to the head unit can take more bytes now: NIO's channel writability (its
/// outbound buffer is below the high-water mark, or has drained to the low-water mark since it
/// went above), as ``SDLWritabilityHandler`` reports it. ``SDLConnection/sendStream(_:_:)``
/// waits here before each batch of stream frames, so a slow head-unit link holds at most the
/// channel's high-water mark and one batch, instead of the whole stream (docs/architecture.md).
///
/// The requests' frames do not wait here: they are written from the critical section that
/// numbers them, and are few and small beside a stream.
final class SDLWriteGate: Sendable {
    private struct State {
        var writable = true
        /// Why the link is gone; every wait fails with it from then on.
        var closed: SDLClientError?
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiter: UInt64 = 0
        /// How many times a sender had to wait or hold back (for tests and logs).
        var suspensions = 0
        var suspensionWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Bytes written from off the channel's event loop that have not reached it yet
        /// (``handOver(_:)`` … ``taken(_:)``), and the bound ``ready(within:otherwise:)`` was given.
        var handedOver = 0
        var handOverLimit = Int.max
        /// Senders told to hold back, each called once when they may go on.
        var readyCallbacks: [@Sendable () -> Void] = []

        /// A sender was held back: counted, and the watchers waiting for that count go on.
        mutating func countSuspension() {
            suspensions += 1
            let count = suspensions
            suspensionWatchers.removeAll { watcher in
                guard watcher.count <= count else { return false }
                watcher.continuation.resume()
                return true
            }
        }

        /// Whether a sender that does not suspend may hand over more.
        var ready: Bool { closed != nil || (writable && handedOver <= handOverLimit) }

        /// The callbacks to call now, if the sender may go on.
        mutating func takeReadyCallbacks() -> [@Sendable () -> Void] {
            guard ready, !readyCallbacks.isEmpty else { return [] }
            defer { readyCallbacks = [] }
            return readyCallbacks
        }
    }

    private let state = Mutex(State())

    /// How many times a sender found the link not writable and waited (or, not suspending, held back).
    var suspensions: Int { state.withLock { $0.suspensions } }

    /// The channel's writability changed; waiters go on when it is writable.
    func set(writable: Bool) {
        let ready = state.withLock { state -> [@Sendable () -> Void] in
            state.writable = writable
            guard writable else { return [] }
            for waiter in state.waiters.values { waiter.resume() }
            state.waiters = [:]
            return state.takeReadyCallbacks()
        }
        for callback in ready { callback() }
    }

    /// The link is gone: waiters fail with `error`, and so does every later wait.
    func close(_ error: SDLClientError) {
        let ready = state.withLock { state -> [@Sendable () -> Void] in
            guard state.closed == nil else { return [] }
            state.closed = error
            for waiter in state.waiters.values { waiter.resume(throwing: error) }
            state.waiters = [:]
            return state.takeReadyCallbacks()
        }
        for callback in ready { callback() }
    }

    // MARK: Senders that do not suspend (SDLConnection.forwardStream)

    /// `count` bytes were written from off the channel's event loop and are on their way to it.
    func handOver(_ count: Int) {
        state.withLock { $0.handedOver += count }
    }

    /// `count` handed-over bytes reached the channel (its writability counts them from now on).
    func taken(_ count: Int) {
        let ready = state.withLock { state -> [@Sendable () -> Void] in
            state.handedOver -= count
            return state.takeReadyCallbacks()
        }
        for callback in ready { callback() }
    }

    /// True when a sender may hand over more now: the channel is writable and at most `limit`
    /// bytes are on their way to its loop (or the link is gone, which the sender's next write
    /// finds). Otherwise false, and `callback`, when given, is called once when that becomes true.
    func ready(within limit: Int, otherwise callback: (@Sendable () -> Void)?) -> Bool {
        state.withLock { state in
            state.handOverLimit = limit
            if state.ready { return true }
            if let callback {
                state.readyCallbacks.append(callback)
                state.countSuspension()
            }
            return false
        }
    }

    /// Returns at once while the link is writable; otherwise when it becomes writable. Throws the
    /// link's error once it is gone, and ``SDLClientError/Code/cancelled`` when the task is.
    func waitUntilWritable() async throws {
        let id: UInt64? = try state.withLock { state in
            if let error = state.closed { throw error }
            if state.writable { return nil }
            state.nextWaiter += 1
            return state.nextWaiter
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if let error = state.closed {
                        continuation.resume(throwing: error)
                    } else if state.writable {
                        continuation.resume()
                    } else if Task.isCancelled {
                        continuation.resume(throwing: SDLClientError(.cancelled, "the stream's sender was cancelled"))
                    } else {
                        state.waiters[id] = continuation
                        state.countSuspension()
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                state.waiters.removeValue(forKey: id)?.resume(throwing: SDLClientError(.cancelled, "the stream's sender was cancelled"))
            }
        }
    }

    /// Returns every ``waitForSuspensions(_:)`` caller now, whatever the count (tests: the sender
    /// finished without waiting, which the caller then reports instead of hanging).
    func releaseSuspensionWatchers() {
        state.withLock { state in
            for watcher in state.suspensionWatchers { watcher.continuation.resume() }
            state.suspensionWatchers = []
        }
    }

    /// Returns once senders have waited `count` times in all (tests: the link pushed back).
    func waitForSuspensions(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            state.withLock { state in
                if state.suspensions >= count {
                    continuation.resume()
                } else {
                    state.suspensionWatchers.append((count, continuation))
                }
            }
        }
    }
}

/// Reports the channel's writability to an ``SDLWriteGate``, and closes the gate when the channel
/// goes inactive. It sits first in the pipeline, next to the socket, where writability changes
/// start; everything passes through it unchanged.
final class SDLWritabilityHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    let gate: SDLWriteGate

    init(gate: SDLWriteGate) {
        self.gate = gate
    }

    func handlerAdded(context: ChannelHandlerContext) {
        gate.set(writable: context.channel.isWritable)
        if !context.channel.isActive { gate.close(SDLClientError(.linkLost, "the connection to the head unit closed")) }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        gate.set(writable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        gate.close(SDLClientError(.linkLost, "the connection to the head unit closed"))
        context.fireChannelInactive()
    }
}
