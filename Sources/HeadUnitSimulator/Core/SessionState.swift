import NIOCore
import SDLProtocol

/// One SDL session: what StartService(RPC) opened on a connection (docs/protocol.md §a).
struct SessionState: Sendable {
    var id: UInt8
    var connection: ConnectionID
    /// The protocol version frames are sent in: 5 for v5 apps, otherwise the version the app
    /// last used (2–4) once it has sent something, 4 before.
    var version: UInt8
    /// The negotiated `protocolVersion` string for v5 (`nil` before v5).
    var protocolVersion: SDLVersion?
    /// `(session << 16) | connection`, as SDL Core computes it.
    var hashID: Int32
    /// The payload size frames are cut to when sending.
    var mtu: Int
    /// Core numbers every frame it sends per session.
    var nextMessageID: UInt32 = 1
    /// Heartbeat monitoring starts with the app's first Heartbeat (Core `StartSessionHeartBeat`).
    var heartbeatMonitored = false
    var lastReceived: NIODeadline
    /// When the head unit sent a Heartbeat that nothing has answered yet.
    var heartbeatSentAt: NIODeadline?
    /// Services started besides RPC and hybrid (audio 0x0A, video 0x0B).
    var streamingServices: Set<SDLServiceType> = []

    mutating func takeMessageID() -> UInt32 {
        defer { nextMessageID = nextMessageID == UInt32.max ? 1 : nextMessageID + 1 }
        return nextMessageID
    }
}

/// A dotted version `major.minor.patch`, compared numerically.
struct SDLVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    var major: Int
    var minor: Int
    var patch: Int

    init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        major = parts[0]!
        minor = parts.count > 1 ? parts[1]! : 0
        patch = parts.count > 2 ? parts[2]! : 0
    }

    static func < (lhs: SDLVersion, rhs: SDLVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    var description: String { "\(major).\(minor).\(patch)" }
}

/// The per-connection part: bytes in, frames out, malformed-input accounting.
struct ConnectionState: Sendable {
    var id: ConnectionID
    var buffer = ByteBuffer()
    var decoder: SDLFrameDecoder
    var assembler: SDLMessageAssembler
    /// Times of recent malformed events, oldest first, at most `malformedFrequencyCount + 1` of
    /// them (one more closes the connection).
    var malformedEvents = CircularBuffer<NIODeadline>(initialCapacity: 4)
    var sessions: Set<UInt8> = []
    var closed = false

    init(id: ConnectionID, maximumPayloadSize: Int) {
        self.id = id
        self.decoder = SDLFrameDecoder(maximumPayloadSize: maximumPayloadSize)
        self.assembler = SDLMessageAssembler()
    }
}
