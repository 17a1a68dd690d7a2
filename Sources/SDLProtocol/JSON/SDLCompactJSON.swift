/// A JSON value kept as its compact text (``SDLJSON/serializedBytes()``) and parsed again when
/// read: for logs and rings that hold many values and read few of them. A parsed tree takes about
/// three times the memory of its text (the permissions table of OnPermissionsChange: 17 KB of
/// JSON, 55 KB as a tree).
public struct SDLCompactJSON: Sendable, Hashable {
    public let bytes: [UInt8]

    /// A large text equal to one kept before shares its storage (``SDLJSONInterning``): every
    /// app's log and ring holds the head unit's capabilities, once.
    public init(_ value: SDLJSON) {
        bytes = SDLJSONInterning.shared.interned(value.serializedBytes())
    }

    /// The value, parsed again (keys come back sorted; integral numbers as written).
    public var value: SDLJSON {
        // The bytes were written by the serializer, so they always parse.
        (try? SDLJSON.parse(bytes)) ?? .null
    }
}
