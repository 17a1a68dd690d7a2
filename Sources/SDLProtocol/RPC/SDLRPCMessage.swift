import NIOCore

/// The kind of an RPC, the top four bits of the binary header (protocol spec §5.2.1).
///
/// The spec's 0x3 "Erroneous Response" (5.4.0) is unknown to SDL Core 8.2, which drops such
/// messages (docs/protocol.md §c, §j.3); it is reported here as ``SDLProtocolError/Code/unknownRPCType``.
public enum SDLRPCType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case request = 0x0
    case response = 0x1
    case notification = 0x2

    /// `request`, `response` or `notification`, as in `inspect` output.
    public var description: String {
        switch self {
        case .request: return "request"
        case .response: return "response"
        case .notification: return "notification"
        }
    }
}

/// An RPC on protocol v2+: binary header, JSON parameters and optional bulk data
/// (protocol spec §5.2; docs/protocol.md §c).
///
/// ```
///  0        1        2        3        4 … 7            8 … 11       12 …           …
/// +----+--------------------------+ +----------------+ +----------+ +------------+ +-----------+
/// |type|  function id (28 bits)   | | correlation id | | JSON size| |   JSON     | | bulk data |
/// |7..4|  big-endian              | | uint32 BE      | | uint32 BE| | (UTF-8)    | | (rest)    |
/// +----+--------------------------+ +----------------+ +----------+ +------------+ +-----------+
/// ```
public struct SDLRPCMessage: Sendable, Hashable {
    /// Size of the binary header in front of the JSON.
    public static let binaryHeaderSize = 12
    /// The largest function id that fits in 28 bits.
    public static let maximumFunctionID: UInt32 = 0x0FFF_FFFF
    /// The correlation id SDL Core puts on notifications (docs/protocol.md §k).
    public static let notificationCorrelationID: UInt32 = 0xFFFF_FFFF

    public var rpcType: SDLRPCType
    /// The FunctionID value from MOBILE_API.xml (docs/protocol.md §g); 28 bits on the wire.
    public var functionID: UInt32
    public var correlationID: UInt32
    /// The parameters object (never a non-object value).
    public var parameters: SDLJSON
    /// Binary data after the JSON (PutFile contents, audio pass-thru PCM …), if any.
    public var bulkData: ByteBuffer?

    public init(
        rpcType: SDLRPCType,
        functionID: UInt32,
        correlationID: UInt32,
        parameters: SDLJSON = .emptyObject,
        bulkData: ByteBuffer? = nil
    ) {
        precondition(functionID <= Self.maximumFunctionID, "function ids have 28 bits")
        self.rpcType = rpcType
        self.functionID = functionID
        self.correlationID = correlationID
        self.parameters = parameters
        self.bulkData = bulkData
    }
}

extension ByteBuffer {
    /// Reads a v2+ RPC message, consuming every readable byte: the binary header, `JSON size`
    /// bytes of JSON (an empty JSON means no parameters), and the rest as bulk data.
    /// Errors name the offset relative to the reader index on entry.
    public mutating func readSDLRPCMessage(maximumJSONDepth: Int = SDLJSON.defaultMaximumDepth) throws(SDLProtocolError) -> SDLRPCMessage {
        var copy = self
        guard let word = copy.readInteger(endianness: .big, as: UInt32.self),
            let correlationID = copy.readInteger(endianness: .big, as: UInt32.self),
            let jsonSize = copy.readInteger(endianness: .big, as: UInt32.self)
        else {
            throw SDLProtocolError(
                .rpcHeaderTruncated,
                "RPC payload is \(readableBytes) bytes, shorter than the 12-byte binary header",
                offset: 0
            )
        }
        let typeBits = UInt8(word >> 28)
        guard let rpcType = SDLRPCType(rawValue: typeBits) else {
            throw SDLProtocolError(.unknownRPCType, "RPC type \(typeBits) is not request, response or notification", offset: 0)
        }
        guard Int(jsonSize) <= copy.readableBytes else {
            throw SDLProtocolError(
                .rpcJSONSizeMismatch,
                "JSON size \(jsonSize) is larger than the \(copy.readableBytes) bytes after the binary header",
                offset: 8
            )
        }
        let json = copy.readSlice(length: Int(jsonSize))!
        var parameters = SDLJSON.emptyObject
        if jsonSize > 0 {
            do {
                parameters = try SDLJSONInterning.shared.parsed(json, maximumDepth: maximumJSONDepth)
            } catch {
                var shifted = error
                shifted.offset = SDLRPCMessage.binaryHeaderSize + (error.offset ?? 0)
                shifted.detail = "RPC JSON: " + error.detail
                throw shifted
            }
            guard case .object = parameters else {
                throw SDLProtocolError(
                    .invalidRPCMessage,
                    "RPC JSON is \(parameters.typeName), not an object",
                    offset: SDLRPCMessage.binaryHeaderSize
                )
            }
        }
        let bulkData = copy.readableBytes > 0 ? copy.readSlice(length: copy.readableBytes) : nil
        self = copy
        return SDLRPCMessage(
            rpcType: rpcType,
            functionID: word & SDLRPCMessage.maximumFunctionID,
            correlationID: correlationID,
            parameters: parameters,
            bulkData: bulkData
        )
    }

    /// Writes a v2+ RPC message: binary header, compact JSON, bulk data. Returns the bytes written.
    @discardableResult
    public mutating func writeSDLRPCMessage(_ message: SDLRPCMessage, prettyJSON: Bool = false) -> Int {
        let json = prettyJSON ? message.parameters.prettySerializedBytes() : message.parameters.serializedBytes()
        var written = writeInteger(UInt32(message.rpcType.rawValue) << 28 | message.functionID, endianness: .big)
        written += writeInteger(message.correlationID, endianness: .big)
        written += writeInteger(UInt32(json.count), endianness: .big)
        written += writeBytes(json)
        if var bulk = message.bulkData {
            written += writeBuffer(&bulk)
        }
        return written
    }
}
