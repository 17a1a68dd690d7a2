/// A JSON value kept as its compact text (``SDLJSON/serializedBytes()``) and parsed again when
/// read: for logs and rings that hold many values and read few of them. A parsed tree takes about
/// three times the memory of its text (the permissions table of OnPermissionsChange: 17 KB of
/// JSON, 55 KB as a tree).
public struct SDLCompactJSON: Sendable, Hashable {
    private enum Storage: Sendable {
        case whole([UInt8])
        /// The text of an object with a large member: that member's text apart, so that it can be
        /// shared although the rest differs (``SDLJSON/serializedPieces(minimumBytes:)``).
        case pieces([[UInt8]])
    }

    private let storage: Storage
    /// The length of the text in bytes.
    public let byteCount: Int

    /// Large texts equal to ones kept before share their storage (``SDLJSONInterning``): every
    /// app's log holds the head unit's capabilities once. A large object seen for the first time
    /// also keeps its large members apart, each shared the same way: an `rpc` event holds the
    /// RegisterAppInterface response's parameters beside a `latencyMs` of its own, so the event
    /// never repeats, but the parameters do (8 KB per app session, heaptrack, issue
    /// "Performance").
    public init(_ value: SDLJSON, interning: SDLJSONInterning = .shared) {
        let whole = value.serializedBytes()
        byteCount = whole.count
        guard whole.count >= interning.minimumBytes, !interning.keeps(whole) else {
            storage = .whole(interning.interned(whole))
            return
        }
        let kept = interning.interned(whole)  // for the next equal text
        let pieces = value.serializedPieces(minimumBytes: interning.minimumBytes)
        storage = pieces.count == 1 ? .whole(kept) : .pieces(pieces.map { interning.interned($0) })
    }

    /// The text.
    public var bytes: [UInt8] {
        switch storage {
        case .whole(let bytes): bytes
        case .pieces(let pieces): Array(pieces.joined())
        }
    }

    /// The value, parsed again (keys come back sorted; integral numbers as written).
    public var value: SDLJSON {
        // The bytes were written by the serializer, so they always parse.
        (try? SDLJSON.parse(bytes)) ?? .null
    }

    public static func == (lhs: SDLCompactJSON, rhs: SDLCompactJSON) -> Bool {
        lhs.byteCount == rhs.byteCount && lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
    }
}
