import NIOCore
import SDLProtocol
import Synchronization

/// Where an app session's connections report their transport bytes for a capture file
/// (``SDLCapture``; `sdl-gateway serve --record DIR`). Handed in through
/// ``SDLConnection/Configuration/capture``; every reconnection of the session reports to the same
/// tap, so one file holds the whole session.
///
/// ``record(_:_:)`` never blocks and never waits: it timestamps the record (time since the tap was
/// made, on a monotonic clock) and puts it in a bounded queue under a short lock, in the order the
/// records were made. When the queue is full — the disk is slower than the link — the record is
/// dropped and counted, and a ``SDLCaptureRecord/Kind/dropped`` record takes its place in the
/// file. A writer (``SDLCaptureFile/write(_:to:logger:)``) drains the queue with ``nextBatch()``.
public final class SDLCaptureTap: Sendable {
    /// The bounds of the queue between the connection and the writer.
    public struct Limits: Sendable, Hashable {
        /// Records waiting for the writer at most.
        public var records: Int
        /// Payload bytes waiting for the writer at most.
        public var bytes: Int

        public init(records: Int = 4096, bytes: Int = 8 * 1024 * 1024) {
            self.records = max(1, records)
            self.bytes = max(1, bytes)
        }
    }

    private struct State: Sendable {
        var queue: [SDLCaptureRecord] = []
        var queuedBytes = 0
        /// Dropped since the last record queued: becomes a `dropped` record before the next one.
        var droppedSinceLast = 0
        var droppedTotal = 0
        var finished = false
        var waiter: CheckedContinuation<[SDLCaptureRecord]?, Never>?
    }

    /// The file's header: which app, which head unit, when.
    public let header: SDLCaptureHeader
    public let limits: Limits
    private let start: ContinuousClock.Instant
    private let state = Mutex(State())

    /// - Parameter header: the file header; its ``SDLCaptureHeader/startMicroseconds`` is the
    ///   wall-clock time of now, the zero of every record's time.
    public init(header: SDLCaptureHeader, limits: Limits = Limits()) {
        self.header = header
        self.limits = limits
        self.start = ContinuousClock.now
    }

    /// Records `bytes` (or a connection record's text) now; drops it when the queue is full.
    public func record(_ kind: SDLCaptureRecord.Kind, _ bytes: ByteBuffer) {
        let wake = state.withLock { state -> Wake? in
            guard !state.finished else { return nil }
            let time = Self.microseconds(ContinuousClock.now - start)
            let size = bytes.readableBytes
            guard state.queue.count < limits.records, state.queuedBytes + size <= limits.bytes || state.queue.isEmpty else {
                state.droppedSinceLast += 1
                state.droppedTotal += 1
                return nil
            }
            if state.droppedSinceLast > 0 {
                state.queue.append(SDLCaptureRecord(droppedCount: UInt32(clamping: state.droppedSinceLast), offsetMicroseconds: time))
                state.droppedSinceLast = 0
            }
            state.queue.append(SDLCaptureRecord(kind: kind, offsetMicroseconds: time, payload: bytes))
            state.queuedBytes += size
            return Self.wake(&state)
        }
        wake?.waiter.resume(returning: wake?.batch)
    }

    /// Records a connection record with a text payload.
    public func record(_ kind: SDLCaptureRecord.Kind, text: String) {
        record(kind, ByteBuffer(string: text))
    }

    /// Ends the recording: records made later are ignored; the writer gets what is queued, then
    /// `nil`. Drops not yet followed by a record become a last `dropped` record.
    public func finish() {
        let wake = state.withLock { state -> Wake? in
            guard !state.finished else { return nil }
            state.finished = true
            if state.droppedSinceLast > 0 {
                let time = Self.microseconds(ContinuousClock.now - start)
                state.queue.append(SDLCaptureRecord(droppedCount: UInt32(clamping: state.droppedSinceLast), offsetMicroseconds: time))
                state.droppedSinceLast = 0
            }
            return Self.wake(&state)
        }
        wake?.waiter.resume(returning: wake?.batch)
    }

    /// Records dropped because the queue was full, over the tap's life.
    public var droppedCount: Int { state.withLock { $0.droppedTotal } }

    /// Records waiting for the writer.
    public var queuedCount: Int { state.withLock { $0.queue.count } }

    /// Every queued record, in order, waiting until there is one; `nil` once ``finish()`` was
    /// called and the queue is empty, or when the calling task is cancelled (the writer stops).
    /// One reader at a time.
    public func nextBatch() async -> [SDLCaptureRecord]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[SDLCaptureRecord]?, Never>) in
                let batch = state.withLock { state -> [SDLCaptureRecord]?? in
                    if !state.queue.isEmpty || state.finished || Task.isCancelled { return .some(Self.takeBatch(&state)) }
                    precondition(state.waiter == nil, "SDLCaptureTap.nextBatch() has one reader at a time")
                    state.waiter = continuation
                    return .none
                }
                if let batch { continuation.resume(returning: batch) }
            }
        } onCancel: {
            state.withLock { $0.waiter.take() }?.resume(returning: nil)
        }
    }

    /// The queue's records, or `nil` when it is empty (finished or cancelled).
    private static func takeBatch(_ state: inout State) -> [SDLCaptureRecord]? {
        guard !state.queue.isEmpty else { return nil }
        defer {
            state.queue = []
            state.queuedBytes = 0
        }
        return state.queue
    }

    /// The waiting writer and what to resume it with, resumed after the lock.
    private struct Wake {
        var waiter: CheckedContinuation<[SDLCaptureRecord]?, Never>
        var batch: [SDLCaptureRecord]?
    }

    private static func wake(_ state: inout State) -> Wake? {
        guard let waiter = state.waiter.take() else { return nil }
        return Wake(waiter: waiter, batch: takeBatch(&state))
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(clamping: seconds) &* 1_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000_000)
    }
}
