import NIOCore
import SDLProtocol

/// A bounded log of the RPCs the head unit received and sent, for the control API's `GET /log`.
public struct TrafficLog: Sendable {
    public struct Entry: Sendable, Hashable {
        public enum Direction: String, Sendable, Hashable { case fromApp, toApp }
        public var sequence: Int
        /// Uptime nanoseconds of the head unit's clock.
        public var time: NIODeadline
        public var direction: Direction
        public var sessionID: UInt8
        public var rpcType: SDLRPCType
        public var function: String
        public var correlationID: UInt32
        public var parameters: SDLJSON
        public var bulkDataSize: Int

        public var json: SDLJSON {
            [
                "seq": .int(Int64(sequence)),
                "uptimeNanoseconds": .int(Int64(truncatingIfNeeded: time.uptimeNanoseconds)),
                "direction": .string(direction.rawValue),
                "session": .int(Int64(sessionID)),
                "rpcType": .string(rpcType.description),
                "function": .string(function),
                "correlationID": .int(Int64(correlationID)),
                "params": parameters,
                "bulkDataSize": .int(Int64(bulkDataSize)),
            ]
        }
    }

    public let capacity: Int
    /// The newest `capacity` entries, oldest first: appending to a full log drops the oldest.
    private var ring: CircularBuffer<Entry>
    private var nextSequence = 1

    public init(capacity: Int) {
        precondition(capacity > 0, "the traffic log needs room for one entry")
        self.capacity = capacity
        // Grows on demand up to `capacity` (rounded up to a power of two), then stays.
        self.ring = CircularBuffer(initialCapacity: min(capacity, 64))
    }

    mutating func append(_ make: (Int) -> Entry) {
        let entry = make(nextSequence)
        nextSequence += 1
        if ring.count == capacity {
            ring.removeFirst()
        }
        ring.append(entry)
    }

    /// How many entries the log holds (at most ``capacity``).
    public var count: Int { ring.count }

    /// The entries, oldest first.
    public var entries: [Entry] { Array(ring) }
}
