import Foundation
import NIOCore
import SDLProtocol

/// The last ``capacity`` events of one app, numbered from 1 (ARCHITECTURE.md, Events): what a
/// client that reconnects with `since=SEQ` (or SSE `Last-Event-ID`) gets back. Pure: time is
/// passed in.
public struct EventRing: Sendable {
    public static let defaultCapacity = 10_000

    public let app: String
    public let capacity: Int
    private var ring: CircularBuffer<GatewayEvent>
    /// The seq of the newest event; 0 before any.
    public private(set) var lastSeq: UInt64 = 0

    public init(app: String, capacity: Int = EventRing.defaultCapacity) {
        precondition(capacity > 0, "an event ring keeps at least one event")
        self.app = app
        self.capacity = capacity
        self.ring = CircularBuffer(initialCapacity: min(capacity, 1024))
    }

    /// The seq of the oldest event still kept (`lastSeq + 1` when empty).
    public var firstSeq: UInt64 { lastSeq + 1 - UInt64(ring.count) }

    /// Appends an event with the next seq and returns it.
    @discardableResult
    public mutating func append(type: String, data: SDLJSON, time: Date) -> GatewayEvent {
        lastSeq += 1
        let event = GatewayEvent(seq: lastSeq, time: time, app: app, type: type, data: data)
        if ring.count == capacity { ring.removeFirst() }
        ring.append(event)
        return event
    }

    /// The events after `since`, oldest first, and how many of those are no longer kept (the
    /// `gap` a client is told about). A `since` beyond the newest event (a stream from another
    /// run of the gateway) replays nothing.
    public func events(after since: UInt64) -> (missed: UInt64, events: [GatewayEvent]) {
        guard since < lastSeq else { return (0, []) }
        let missed = firstSeq > since + 1 ? firstSeq - since - 1 : 0
        let start = Int(max(since + 1, firstSeq) - firstSeq)
        return (missed, Array(ring.dropFirst(start)))
    }
}
