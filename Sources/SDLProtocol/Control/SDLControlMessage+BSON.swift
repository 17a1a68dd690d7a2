// Control parameters <-> BSON documents (protocol spec §3.1.3; docs/protocol.md §b).
//
// Reading is strict about the type of each known key (Core's typed getters are, too) and ignores
// unknown keys. The one leniency: `mtu` is accepted as int32 as well as int64.
// Writing leaves out nil fields and uses exactly the documented BSON types.

extension BSONDocument {
    fileprivate mutating func append(_ key: String, _ value: String?) {
        if let value { append(key, .string(value)) }
    }

    fileprivate mutating func append(_ key: String, _ value: Int32?) {
        if let value { append(key, .int32(value)) }
    }

    fileprivate mutating func append(_ key: String, _ value: Int64?) {
        if let value { append(key, .int64(value)) }
    }

    fileprivate mutating func append(_ key: String, _ values: [String]?) {
        if let values { append(key, .array(values.map { .string($0) })) }
    }

    fileprivate mutating func append(_ key: String, _ values: [Int32]?) {
        if let values { append(key, .array(values.map { .int32($0) })) }
    }

    private static func wrongType(_ key: String, _ value: BSONValue, expected: String) -> SDLProtocolError {
        SDLProtocolError(.invalidControlPayload, "`\(key)` is \(value.typeName), expected \(expected)")
    }

    fileprivate func controlString(_ key: String) throws(SDLProtocolError) -> String? {
        guard let value = self[key] else { return nil }
        guard case .string(let string) = value else { throw Self.wrongType(key, value, expected: "string") }
        return string
    }

    fileprivate func controlInt32(_ key: String) throws(SDLProtocolError) -> Int32? {
        guard let value = self[key] else { return nil }
        guard case .int32(let int) = value else { throw Self.wrongType(key, value, expected: "int32") }
        return int
    }

    /// int64, or an int32 widened.
    fileprivate func controlInt64(_ key: String) throws(SDLProtocolError) -> Int64? {
        guard let value = self[key] else { return nil }
        switch value {
        case .int64(let int): return int
        case .int32(let int): return Int64(int)
        default: throw Self.wrongType(key, value, expected: "int64")
        }
    }

    fileprivate func controlStringArray(_ key: String) throws(SDLProtocolError) -> [String]? {
        guard let value = self[key] else { return nil }
        guard case .array(let values) = value else { throw Self.wrongType(key, value, expected: "string array") }
        var strings: [String] = []
        for element in values {
            guard case .string(let string) = element else {
                throw Self.wrongType(key, element, expected: "string array elements")
            }
            strings.append(string)
        }
        return strings
    }

    fileprivate func controlInt32Array(_ key: String) throws(SDLProtocolError) -> [Int32]? {
        guard let value = self[key] else { return nil }
        guard case .array(let values) = value else { throw Self.wrongType(key, value, expected: "int32 array") }
        var ints: [Int32] = []
        for element in values {
            guard case .int32(let int) = element else {
                throw Self.wrongType(key, element, expected: "int32 array elements")
            }
            ints.append(int)
        }
        return ints
    }
}

private typealias Key = SDLControlKey

extension SDLControlMessage.StartService {
    init(bson document: BSONDocument) throws(SDLProtocolError) {
        self.init(
            protocolVersion: try document.controlString(Key.protocolVersion),
            height: try document.controlInt32(Key.height),
            width: try document.controlInt32(Key.width),
            videoProtocol: try document.controlString(Key.videoProtocol),
            videoCodec: try document.controlString(Key.videoCodec)
        )
    }

    var bson: BSONDocument {
        var document = BSONDocument()
        document.append(Key.protocolVersion, protocolVersion)
        document.append(Key.height, height)
        document.append(Key.width, width)
        document.append(Key.videoProtocol, videoProtocol)
        document.append(Key.videoCodec, videoCodec)
        return document
    }
}

extension SDLControlMessage.StartServiceACK {
    init(bson document: BSONDocument) throws(SDLProtocolError) {
        self.init(
            protocolVersion: try document.controlString(Key.protocolVersion),
            hashID: try document.controlInt32(Key.hashID),
            mtu: try document.controlInt64(Key.mtu),
            secondaryTransports: try document.controlStringArray(Key.secondaryTransports),
            audioServiceTransports: try document.controlInt32Array(Key.audioServiceTransports),
            videoServiceTransports: try document.controlInt32Array(Key.videoServiceTransports),
            authToken: try document.controlString(Key.authToken),
            make: try document.controlString(Key.make),
            model: try document.controlString(Key.model),
            modelYear: try document.controlString(Key.modelYear),
            trim: try document.controlString(Key.trim),
            systemSoftwareVersion: try document.controlString(Key.systemSoftwareVersion),
            systemHardwareVersion: try document.controlString(Key.systemHardwareVersion),
            height: try document.controlInt32(Key.height),
            width: try document.controlInt32(Key.width),
            videoProtocol: try document.controlString(Key.videoProtocol),
            videoCodec: try document.controlString(Key.videoCodec)
        )
    }

    /// Keys in Core's order (hashId, mtu, protocolVersion first), then the rest.
    var bson: BSONDocument {
        var document = BSONDocument()
        document.append(Key.hashID, hashID)
        document.append(Key.mtu, mtu)
        document.append(Key.protocolVersion, protocolVersion)
        document.append(Key.secondaryTransports, secondaryTransports)
        document.append(Key.audioServiceTransports, audioServiceTransports)
        document.append(Key.videoServiceTransports, videoServiceTransports)
        document.append(Key.authToken, authToken)
        document.append(Key.make, make)
        document.append(Key.model, model)
        document.append(Key.modelYear, modelYear)
        document.append(Key.trim, trim)
        document.append(Key.systemSoftwareVersion, systemSoftwareVersion)
        document.append(Key.systemHardwareVersion, systemHardwareVersion)
        document.append(Key.height, height)
        document.append(Key.width, width)
        document.append(Key.videoProtocol, videoProtocol)
        document.append(Key.videoCodec, videoCodec)
        return document
    }
}

extension SDLControlMessage.NAK {
    init(bson document: BSONDocument) throws(SDLProtocolError) {
        self.init(
            rejectedParams: try document.controlStringArray(Key.rejectedParams),
            reason: try document.controlString(Key.reason)
        )
    }

    var bson: BSONDocument {
        var document = BSONDocument()
        document.append(Key.rejectedParams, rejectedParams)
        document.append(Key.reason, reason)
        return document
    }
}

extension SDLControlMessage.EndService {
    init(bson document: BSONDocument) throws(SDLProtocolError) {
        self.init(hashID: try document.controlInt32(Key.hashID))
    }

    var bson: BSONDocument {
        var document = BSONDocument()
        document.append(Key.hashID, hashID)
        return document
    }
}

extension SDLControlMessage.TransportEventUpdate {
    init(bson document: BSONDocument) throws(SDLProtocolError) {
        self.init(
            tcpIPAddress: try document.controlString(Key.tcpIPAddress),
            tcpPort: try document.controlInt32(Key.tcpPort)
        )
    }

    var bson: BSONDocument {
        var document = BSONDocument()
        document.append(Key.tcpIPAddress, tcpIPAddress)
        document.append(Key.tcpPort, tcpPort)
        return document
    }
}
