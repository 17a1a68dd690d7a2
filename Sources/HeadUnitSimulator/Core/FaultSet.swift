import NIOCore
import SDLProtocol

/// Faults injected through the control API (`POST /faults`): what a real head unit does on a bad
/// day — answer late, answer an error, never answer, drop the link, send garbage, flood.
public struct Fault: Sendable, Hashable {
    /// The request function the fault applies to; `nil` for every request.
    public var function: String?
    /// Hold the response back this long.
    public var delay: TimeAmount?
    /// Answer with this result code instead of handling the request.
    public var resultCode: String?
    /// Never answer.
    public var hang: Bool
    /// Close the connection instead of answering.
    public var dropConnection: Bool
    /// Send a malformed frame instead of answering.
    public var malformedFrame: Bool

    public init(
        function: String? = nil,
        delay: TimeAmount? = nil,
        resultCode: String? = nil,
        hang: Bool = false,
        dropConnection: Bool = false,
        malformedFrame: Bool = false
    ) {
        self.function = function
        self.delay = delay
        self.resultCode = resultCode
        self.hang = hang
        self.dropConnection = dropConnection
        self.malformedFrame = malformedFrame
    }

    public var json: SDLJSON {
        var value: [String: SDLJSON] = [
            "hang": .bool(hang), "dropConnection": .bool(dropConnection), "malformedFrame": .bool(malformedFrame),
        ]
        value["function"] = function.map { .string($0) }
        value["delayMs"] = delay.map { .int($0.nanoseconds / 1_000_000) }
        value["resultCode"] = resultCode.map { .string($0) }
        return .object(value)
    }
}

/// The faults in force; the most recently added matching one applies.
public struct FaultSet: Sendable, Hashable {
    /// At most this many faults are kept.
    public static let capacity = 100

    /// The newest ``capacity`` faults, oldest first: adding to a full set drops the oldest.
    private var ring = CircularBuffer<Fault>(initialCapacity: 4)

    public init() {}

    /// The faults in force, oldest first.
    public var faults: [Fault] { Array(ring) }

    public mutating func add(_ fault: Fault) {
        if ring.count == Self.capacity {
            ring.removeFirst()
        }
        ring.append(fault)
    }

    public mutating func removeAll() { ring.removeAll() }

    func match(_ function: String) -> Fault? {
        ring.last { $0.function == nil || $0.function == function }
    }
}
