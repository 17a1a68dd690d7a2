import Foundation
import NIOCore
import SDLProtocol

/// The last ``capacity`` events of one app (fewer when their data passes ``byteCapacity``), numbered from 1, or from `after + 1` for a
/// re-created
/// app id so that seqs never repeat for an id (docs/architecture.md, Events): what a
/// client that reconnects with `since=SEQ` (or SSE `Last-Event-ID`) gets back. Pure: time is
/// passed in.
public struct EventRing: Sendable {
    public static let defaultCapacity = 10_000
    public static let defaultByteCapacity = 8 << 20

    public let app: String
    public let capacity: Int
    /// The most bytes of compact JSON data the kept events hold together; the newest event is
    /// always kept.
    public let byteCapacity: Int
    /// The bytes of compact JSON data the kept events hold.
    public private(set) var bytes = 0
    /// Events with their data as ``SDLCompactJSON``: the ring keeps 10,000 events per app and
    /// reads them only for a replay.
    private var ring: CircularBuffer<StoredEvent>

    private struct StoredEvent: Sendable {
        var seq: UInt64
        var time: Date
        var type: String
        var data: SDLCompactJSON
    }
    /// The seq the ring's first event followed (0, or the last seq of an earlier app with this
    /// id): events up to it belong to that app, never to this one's `since` replays or gaps.
    public let startSeq: UInt64
    /// The seq of the newest event; ``startSeq`` before any.
    public private(set) var lastSeq: UInt64 = 0

    /// - Parameter after: the seq the first event follows (the last seq of an earlier app with
    ///   this id); the ring starts empty.
    public init(
        app: String, capacity: Int = EventRing.defaultCapacity, byteCapacity: Int = EventRing.defaultByteCapacity, after: UInt64 = 0
    ) {
        precondition(capacity > 0, "an event ring keeps at least one event")
        self.app = app
        self.capacity = capacity
        self.byteCapacity = byteCapacity
        self.lastSeq = after
        self.startSeq = after
        self.ring = CircularBuffer(initialCapacity: min(capacity, 16))
    }

    /// The seq of the oldest event still kept (`lastSeq + 1` when empty).
    public var firstSeq: UInt64 { lastSeq + 1 - UInt64(ring.count) }

    /// Appends an event with the next seq and returns it.
    @discardableResult
    public mutating func append(type: String, data: SDLJSON, time: Date) -> GatewayEvent {
        lastSeq += 1
        let event = GatewayEvent(seq: lastSeq, time: time, app: app, type: type, data: data)
        let stored = StoredEvent(seq: event.seq, time: event.time, type: type, data: SDLCompactJSON(data))
        if ring.count == capacity { bytes -= ring.removeFirst().data.byteCount }
        while !ring.isEmpty, bytes + stored.data.byteCount > byteCapacity { bytes -= ring.removeFirst().data.byteCount }
        bytes += stored.data.byteCount
        ring.append(stored)
        return event
    }

    /// The events after `since`, oldest first, and how many of those are no longer kept (the
    /// `gap` a client is told about). A `since` beyond the newest event (a stream from another
    /// run of the gateway) replays nothing.
    /// A `since` before ``startSeq`` counts from ``startSeq``: the earlier app's events are not
    /// this app's, nor missed.
    public func events(after since: UInt64) -> (missed: UInt64, events: [GatewayEvent]) {
        let since = max(since, startSeq)
        guard since < lastSeq else { return (0, []) }
        let missed = firstSeq > since + 1 ? firstSeq - since - 1 : 0
        let start = Int(max(since + 1, firstSeq) - firstSeq)
        return (
            missed, ring.dropFirst(start).map { GatewayEvent(seq: $0.seq, time: $0.time, app: app, type: $0.type, data: $0.data.value) }
        )
    }
}
