import NIOCore

/// Identifies one transport connection to the simulated head unit. Like SDL Core's connection
/// handle it counts from 1, and it is the low 16 bits of every hash id (docs/protocol.md §a).
public struct ConnectionID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "connection \(rawValue)" }
}

/// What the pure ``HeadUnit`` asks its driver to do.
public enum HeadUnitAction: Sendable, Hashable {
    /// Write these bytes (one or more whole frames) to the connection.
    case write(ConnectionID, ByteBuffer)
    /// Close the connection (after the writes before this action).
    case close(ConnectionID)
}
