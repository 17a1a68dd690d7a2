import NIOCore

/// An RPC on protocol v1: no binary header, the payload is a JSON wrapper
/// `{"request"|"response"|"notification": {"name", "correlationID", "parameters"}}`
/// (protocol spec §5.1; docs/protocol.md §c "Protocol v1"). SDL Core appends a NUL byte to the JSON
/// it sends in v1, which the reader ignores. Only old peers speak it; the gateway reads it so that
/// `inspect` and the simulator understand them.
public struct SDLRPCMessageV1: Sendable, Hashable {
    public var rpcType: SDLRPCType
    /// The function name, e.g. `RegisterAppInterface`.
    public var name: String
    /// Absent on notifications.
    public var correlationID: UInt32?
    public var parameters: SDLJSON

    public init(rpcType: SDLRPCType, name: String, correlationID: UInt32?, parameters: SDLJSON = .emptyObject) {
        self.rpcType = rpcType
        self.name = name
        self.correlationID = correlationID
        self.parameters = parameters
    }

    /// The JSON wrapper of this message.
    public var json: SDLJSON {
        var body: [String: SDLJSON] = ["name": .string(name), "parameters": parameters]
        if let correlationID { body["correlationID"] = .int(Int64(correlationID)) }
        return .object([rpcType.description: .object(body)])
    }
}

extension ByteBuffer {
    /// Reads a v1 RPC message, consuming every readable byte.
    public mutating func readSDLRPCMessageV1(
        maximumJSONDepth: Int = SDLJSON.defaultMaximumDepth
    ) throws(SDLProtocolError) -> SDLRPCMessageV1 {
        var copy = self
        var length = copy.readableBytes
        while length > 0, copy.getInteger(at: copy.readerIndex + length - 1, as: UInt8.self) == 0 {
            length -= 1
        }
        let json = try SDLJSON.parse(copy.readSlice(length: length)!, maximumDepth: maximumJSONDepth)
        guard case .object(let wrapper) = json, wrapper.count == 1, let (kind, body) = wrapper.first,
            let rpcType = SDLRPCType.allCases.first(where: { $0.description == kind })
        else {
            throw SDLProtocolError(
                .invalidRPCMessage,
                "v1 RPC JSON must be one of {\"request\"|\"response\"|\"notification\": {…}}",
                offset: 0
            )
        }
        guard let name = body["name"]?.stringValue else {
            throw SDLProtocolError(.invalidRPCMessage, "v1 RPC has no string \"name\"", offset: 0)
        }
        var correlationID: UInt32?
        if let value = body["correlationID"] {
            guard let number = value.intValue, let exact = UInt32(exactly: number) else {
                throw SDLProtocolError(.invalidRPCMessage, "v1 RPC correlationID \(value) is not a uint32", offset: 0)
            }
            correlationID = exact
        } else if rpcType != .notification {
            throw SDLProtocolError(.invalidRPCMessage, "v1 \(rpcType) has no correlationID", offset: 0)
        }
        let parameters = body["parameters"] ?? .emptyObject
        guard case .object = parameters else {
            throw SDLProtocolError(.invalidRPCMessage, "v1 RPC parameters are \(parameters.typeName), not an object", offset: 0)
        }
        self = copy
        moveReaderIndex(to: writerIndex)
        return SDLRPCMessageV1(rpcType: rpcType, name: name, correlationID: correlationID, parameters: parameters)
    }

    /// Writes a v1 RPC message as compact JSON; returns the bytes written.
    @discardableResult
    public mutating func writeSDLRPCMessageV1(_ message: SDLRPCMessageV1) -> Int {
        message.json.write(to: &self)
    }
}
