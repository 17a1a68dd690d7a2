import NIOCore
import SDLProtocol

/// Where an app session's connections report their transport bytes for a capture file
/// (``SDLCapture``; `sdl-gateway serve --record DIR`). Handed in through
/// ``SDLConnection/Configuration/capture``; every reconnection of the session reports to the same
/// tap, so one file holds the whole session.
///
/// ``record(_:_:)`` never blocks and never waits: it timestamps the record (time since the tap was
/// made, on a monotonic clock) and puts it in a bounded queue (an ``SDLDropQueue``) under a short
/// lock, in the order the records were made. When the queue is full — the disk is slower than the
/// link — the record is dropped and counted, and a ``SDLCaptureRecord/Kind/dropped`` record goes
/// before the next record queued (or last, at ``finish()``), stamped with that moment. A writer
/// (``SDLCaptureFile/write(_:to:logger:)``) drains the queue with ``nextBatch()``.
public final class SDLCaptureTap: Sendable {
    /// The bounds of the queue between the connection and the writer.
    public struct Limits: Sendable, Hashable {
        /// Records waiting for the writer at most (`dropped` records aside).
        public var records: Int
        /// Payload bytes waiting for the writer at most (one larger record is let into an empty queue).
        public var bytes: Int

        public init(records: Int = 4096, bytes: Int = 8 * 1024 * 1024) {
            self.records = max(1, records)
            self.bytes = max(1, bytes)
        }
    }

    /// The file's header: which app, which head unit, when.
    public let header: SDLCaptureHeader
    public let limits: Limits
    private let start: ContinuousClock.Instant
    private let queue: SDLDropQueue<SDLCaptureRecord, SDLLostCount>
    private let onDrop: @Sendable () -> Void

    /// - Parameters:
    ///   - header: the file header; its ``SDLCaptureHeader/startMicroseconds`` is the wall-clock
    ///     time of now, the zero of every record's time.
    ///   - onDrop: called once for each record the tap drops (after its lock is released), e.g.
    ///     to count it in a metric; it must return quickly.
    public init(header: SDLCaptureHeader, limits: Limits = Limits(), onDrop: @escaping @Sendable () -> Void = {}) {
        let start = ContinuousClock.now
        self.header = header
        self.limits = limits
        self.start = start
        self.onDrop = onDrop
        self.queue = SDLDropQueue(capacity: limits.records, maximumWeight: limits.bytes, lossPlacement: .beforeNextElement) { lost in
            SDLCaptureRecord(
                droppedCount: UInt32(clamping: lost.lostCount), offsetMicroseconds: Self.microseconds(ContinuousClock.now - start))
        }
    }

    /// Records `bytes` (or a connection record's text) now; drops it when the queue is full.
    public func record(_ kind: SDLCaptureRecord.Kind, _ bytes: ByteBuffer) {
        let pushed = queue.push(
            SDLCaptureRecord(kind: kind, offsetMicroseconds: Self.microseconds(ContinuousClock.now - start), payload: bytes),
            weight: bytes.readableBytes, loss: SDLLostCount(1)
        )
        if pushed == .dropped { onDrop() }
    }

    /// Records a connection record with a text payload.
    public func record(_ kind: SDLCaptureRecord.Kind, text: String) {
        record(kind, ByteBuffer(string: text))
    }

    /// Ends the recording: records made later are ignored; the writer gets what is queued, then
    /// `nil`. Drops not yet followed by a record become a last `dropped` record.
    public func finish() {
        queue.finish()
    }

    /// Records dropped because the queue was full, over the tap's life.
    public var droppedCount: Int { queue.dropped }

    /// Records waiting for the writer (`dropped` records aside).
    public var queuedCount: Int { queue.waiting }

    /// Every queued record, in order, waiting until there is one; `nil` once ``finish()`` was
    /// called and the queue is empty, or when the calling task is cancelled (the writer stops).
    /// One reader at a time.
    public func nextBatch() async -> [SDLCaptureRecord]? {
        await queue.nextBatch()
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(clamping: seconds) &* 1_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000_000)
    }
}
