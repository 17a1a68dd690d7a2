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
    private var ring: [Entry] = []
    private var start = 0
    private var nextSequence = 1

    public init(capacity: Int) {
        precondition(capacity > 0, "the traffic log needs room for one entry")
        self.capacity = capacity
    }

    mutating func append(_ make: (Int) -> Entry) {
        let entry = make(nextSequence)
        nextSequence += 1
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[start] = entry
            start = (start + 1) % capacity
        }
    }

    /// The entries, oldest first.
    public var entries: [Entry] { Array(ring[start...] + ring[..<start]) }
}
