import NIOCore
import SDLProtocol

/// One RPC that crossed the link, for the `rpc` events of the gateway (docs/architecture.md, Events).
public struct SDLTrafficEntry: Sendable, Hashable {
    public enum Direction: String, Sendable, Hashable {
        /// From the gateway to the head unit.
        case sent
        /// From the head unit to the gateway.
        case received
    }

    /// Position in the log since it was created, from 1; gaps show what the ring dropped.
    public var sequence: UInt64
    public var direction: Direction
    /// Request, response or notification (docs/protocol.md §c, binary header bits 7–4).
    public var rpcType: SDLRPCType
    public var function: String
    public var correlationID: UInt32
    public var time: NIODeadline
    /// For a response: the time since the request with the same correlation id was recorded.
    public var latency: TimeAmount?
    public var parameters: SDLJSON

    /// `{sequence, direction, type, function, correlationID, latencyMs?, params}`.
    public var json: SDLJSON {
        var members: [String: SDLJSON] = [
            "sequence": .int(Int64(sequence)),
            "direction": .string(direction.rawValue),
            "type": .string(rpcType.description),
            "function": .string(function),
            "correlationID": .int(Int64(correlationID)),
            "params": parameters,
        ]
        if let latency { members["latencyMs"] = .double(Double(latency.nanoseconds) / 1_000_000) }
        return .object(members)
    }
}

/// A bounded log of RPC traffic: a ring (NIO's `CircularBuffer`) keeping the last ``capacity``
/// entries. A response is matched to its request by correlation id (docs/protocol.md §c) to record
/// its latency. Pure: the time of each entry is passed in.
public struct SDLTrafficLog: Sendable {
    public static let defaultCapacity = 1000

    public let capacity: Int
    /// Entries with their parameters as ``SDLCompactJSON``, for as long as they are kept; reading
    /// ``entries`` parses them again.
    private var ring: CircularBuffer<StoredEntry>
    private var nextSequence: UInt64 = 1
    /// Send times of requests not yet answered, at most ``capacity`` of them.
    private var pending: [UInt32: NIODeadline] = [:]

    public init(capacity: Int = SDLTrafficLog.defaultCapacity) {
        precondition(capacity > 0, "a traffic log keeps at least one entry")
        self.capacity = capacity
        self.ring = CircularBuffer(initialCapacity: min(capacity, 16))
    }

    /// Entries dropped because the ring was full.
    public var dropped: UInt64 { nextSequence - 1 - UInt64(ring.count) }

    /// An entry whose parameters are kept compact (its own `parameters` left `null`).
    private struct StoredEntry: Sendable {
        var entry: SDLTrafficEntry
        var parameters: SDLCompactJSON

        init(_ entry: SDLTrafficEntry) {
            parameters = SDLCompactJSON(entry.parameters)
            self.entry = entry
            self.entry.parameters = .null
        }

        var restored: SDLTrafficEntry {
            var restored = entry
            restored.parameters = parameters.value
            return restored
        }
    }

    /// The kept entries, oldest first (their parameters parsed again).
    public var entries: [SDLTrafficEntry] {
        ring.map(\.restored)
    }

    /// The kept entries with a sequence after `sequence`, oldest first: only those are parsed.
    public func entries(after sequence: UInt64) -> [SDLTrafficEntry] {
        ring.filter { $0.entry.sequence > sequence }.map(\.restored)
    }

    /// The sequence of the newest entry, 0 when empty.
    public var lastSequence: UInt64 { nextSequence - 1 }

    /// Records one RPC and returns its entry. A sent request remembers its time; a received
    /// response with the same correlation id gets the latency.
    @discardableResult
    public mutating func record(
        _ direction: SDLTrafficEntry.Direction,
        rpcType: SDLRPCType,
        function: String,
        correlationID: UInt32,
        parameters: SDLJSON,
        now: NIODeadline
    ) -> SDLTrafficEntry {
        var latency: TimeAmount?
        switch (direction, rpcType) {
        case (.sent, .request):
            if pending.count >= capacity, let oldest = pending.min(by: { $0.value < $1.value })?.key {
                pending[oldest] = nil
            }
            pending[correlationID] = now
        case (.received, .response):
            if let sentAt = pending.removeValue(forKey: correlationID) { latency = now - sentAt }
        default:
            break
        }
        let entry = SDLTrafficEntry(
            sequence: nextSequence,
            direction: direction,
            rpcType: rpcType,
            function: function,
            correlationID: correlationID,
            time: now,
            latency: latency,
            parameters: parameters
        )
        nextSequence += 1
        if ring.count == capacity { ring.removeFirst() }
        ring.append(StoredEntry(entry))
        return entry
    }

    /// Forgets unanswered requests (the link went down: their responses will never come).
    public mutating func clearPending() {
        pending.removeAll()
    }
}
