import NIOCore
import Synchronization

/// Keeps one copy of the large JSON values that every app of a head unit receives byte for byte
/// alike: the RegisterAppInterface response with the head unit's capabilities (about 33 KB from
/// SDL Core 8.2's stock capabilities), OnPermissionsChange with the policy's table (about 17 KB),
/// OnSystemCapabilityUpdated. Without it each session kept its own parse tree of them, and its
/// traffic log and event ring their own compact text (docs/protocol.md §g; issue "Performance":
/// what each session keeps).
///
/// Values are looked up by their exact bytes, so a value found here is the value the bytes would
/// have given: interning changes memory, never a result. Only values of at least
/// ``minimumBytes`` take part (hashing a small one would cost more than it saves), and the table
/// is bounded: at most ``maximumEntries`` values and ``maximumBytes`` of text, the least recently
/// used going first. A value it lets go lives on in whoever holds it; only sharing ends.
public final class SDLJSONInterning: Sendable {
    /// The table of the process: ``SDLRPCMessage`` decoding and ``SDLCompactJSON`` use it.
    public static let shared = SDLJSONInterning()

    /// Smaller values are not interned.
    public let minimumBytes: Int
    /// At most this many values are kept.
    public let maximumEntries: Int
    /// At most this many bytes of text are kept (parse trees are about three times their text).
    public let maximumBytes: Int

    fileprivate struct Entry {
        var bytes: [UInt8]
        /// The parse tree, for text received (``parsed(_:maximumDepth:)``); `nil` for compact
        /// text kept as bytes (``interned(_:)``).
        var value: SDLJSON?
        var lastUse: UInt64
    }

    fileprivate struct State {
        var entries: [[UInt8]: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
    }

    private let state = Mutex(State())

    public init(minimumBytes: Int = 2048, maximumEntries: Int = 64, maximumBytes: Int = 2 << 20) {
        self.minimumBytes = minimumBytes
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// How many lookups found their value already kept.
    public var hits: Int { state.withLock { $0.hits } }

    /// Whether a value of exactly these bytes is kept.
    public func keeps(_ bytes: [UInt8]) -> Bool { state.withLock { $0.entries[bytes] != nil } }

    /// How many values are kept, and their bytes of text.
    public var kept: (entries: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }

    /// The JSON text of `buffer`'s readable bytes, parsed, or the tree of the same bytes parsed
    /// before. Errors are ``SDLJSON/parse(_:maximumDepth:)-(ByteBuffer,_)``'s; a text that fails
    /// is not kept.
    public func parsed(_ buffer: ByteBuffer, maximumDepth: Int = SDLJSON.defaultMaximumDepth) throws(SDLProtocolError) -> SDLJSON {
        guard buffer.readableBytes >= minimumBytes else { return try SDLJSON.parse(buffer, maximumDepth: maximumDepth) }
        let key = Array(buffer.readableBytesView)
        if let value = state.withLock({ $0.find(key)?.value }) { return value }
        let value = try SDLJSON.parse(key, maximumDepth: maximumDepth)
        state.withLock { $0.insert(Entry(bytes: key, value: value, lastUse: 0), limits: self) }
        return value
    }

    /// `bytes`, or an equal array kept before, whose storage is then shared.
    public func interned(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= minimumBytes else { return bytes }
        return state.withLock { state in
            if let entry = state.find(bytes) { return entry.bytes }
            state.insert(Entry(bytes: bytes, value: nil, lastUse: 0), limits: self)
            return bytes
        }
    }
}

extension SDLJSONInterning.State {
    /// The entry of `key`, marked as used now.
    fileprivate mutating func find(_ key: [UInt8]) -> SDLJSONInterning.Entry? {
        guard var entry = entries[key] else { return nil }
        clock &+= 1
        entry.lastUse = clock
        entries[key] = entry
        hits += 1
        return entry
    }

    /// Keeps `entry` (unless another took its place meanwhile), then lets the least recently used
    /// go until the limits hold again; an entry larger than the byte limit is not kept.
    fileprivate mutating func insert(_ entry: SDLJSONInterning.Entry, limits: SDLJSONInterning) {
        guard entry.bytes.count <= limits.maximumBytes, entries[entry.bytes] == nil else { return }
        clock &+= 1
        var entry = entry
        entry.lastUse = clock
        entries[entry.bytes] = entry
        bytes += entry.bytes.count
        while entries.count > limits.maximumEntries || bytes > limits.maximumBytes,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            bytes -= oldest.count
            entries[oldest] = nil
        }
    }
}
