import NIOCore

// Control messages <-> control frames (protocol spec §3.1; docs/protocol.md §a, §b).
//
// ```
//  v5 (and a StartService of any version that has parameters):
//  +------------------------+-------------------------------+
//  | header (8 or 12 bytes) | BSON document (or nothing)    |
//  |  frame type 0 control  |  { "protocolVersion": … }     |
//  +------------------------+-------------------------------+
//  v2–v4 StartServiceACK / EndService with a hash id:
//  +------------------------+-------------------------------+
//  | header (12 bytes)      | hash id: int32 big-endian     |
//  +------------------------+-------------------------------+
// ```

extension SDLControlMessage {
    /// Size of the v2–v4 hash id payload of StartServiceACK and EndService.
    public static let hashIDPayloadSize = 4

    /// Decodes a control frame.
    ///
    /// - The frame type must be control (`invalidFrame`) and its frame info a known value
    ///   (`unknownControlFrame`).
    /// - Version 5: the payload is one BSON document (the whole payload; an empty payload means no
    ///   parameters). BSON errors keep their own codes, with offsets relative to the payload.
    ///   Known keys with the wrong BSON type, and bytes after the document, are
    ///   `invalidControlPayload`; unknown keys are ignored.
    /// - Versions 2–4: StartServiceACK and EndService may carry a 4-byte big-endian hash id (an
    ///   empty payload means none; 1–3 bytes is `invalidControlPayload`, extra bytes are ignored).
    /// - StartService parameters are read as BSON whatever the header version, so the v1-header
    ///   StartService carrying `protocolVersion` decodes.
    /// - Any other payload of a kind that has no parameters in that version is ignored.
    public init(frame: SDLFrame) throws(SDLProtocolError) {
        let header = frame.header
        guard header.frameType == .control else {
            throw SDLProtocolError(.invalidFrame, "a \(header.frameType) frame is not a control frame")
        }
        guard let info = SDLControlFrameInfo(rawValue: header.frameInfo) else {
            throw SDLProtocolError(
                .unknownControlFrame, "control frame info 0x\(String(header.frameInfo, radix: 16)) is reserved")
        }
        let payload = frame.payload
        let isBSON = header.version >= 5
        switch info {
        case .heartbeat: self = .heartbeat
        case .heartbeatACK: self = .heartbeatACK
        case .endServiceACK: self = .endServiceACK
        case .registerSecondaryTransport: self = .registerSecondaryTransport
        case .registerSecondaryTransportACK: self = .registerSecondaryTransportACK
        case .serviceDataACK: self = .serviceDataACK
        case .startService:
            self = .startService(try StartService(bson: Self.readParameters(payload)))
        case .startServiceACK:
            if isBSON {
                self = .startServiceACK(try StartServiceACK(bson: Self.readParameters(payload)))
            } else {
                self = .startServiceACK(StartServiceACK(hashID: try Self.readHashID(payload)))
            }
        case .endService:
            if isBSON {
                self = .endService(try EndService(bson: Self.readParameters(payload)))
            } else {
                self = .endService(EndService(hashID: try Self.readHashID(payload)))
            }
        case .startServiceNAK:
            self = .startServiceNAK(isBSON ? try NAK(bson: Self.readParameters(payload)) : NAK())
        case .endServiceNAK:
            self = .endServiceNAK(isBSON ? try NAK(bson: Self.readParameters(payload)) : NAK())
        case .registerSecondaryTransportNAK:
            self = .registerSecondaryTransportNAK(isBSON ? try NAK(bson: Self.readParameters(payload)) : NAK())
        case .transportEventUpdate:
            self = .transportEventUpdate(
                isBSON ? try TransportEventUpdate(bson: Self.readParameters(payload)) : TransportEventUpdate())
        }
    }

    /// The whole payload as one BSON document; empty payload → empty document.
    private static func readParameters(_ payload: ByteBuffer) throws(SDLProtocolError) -> BSONDocument {
        guard payload.readableBytes > 0 else { return BSONDocument() }
        var payload = payload
        let start = payload.readerIndex
        let document = try payload.readBSONDocument()
        guard payload.readableBytes == 0 else {
            throw SDLProtocolError(
                .invalidControlPayload, "\(payload.readableBytes) bytes follow the BSON document",
                offset: payload.readerIndex - start)
        }
        return document
    }

    private static func readHashID(_ payload: ByteBuffer) throws(SDLProtocolError) -> Int32? {
        guard payload.readableBytes > 0 else { return nil }
        guard let hashID = payload.getInteger(at: payload.readerIndex, endianness: .big, as: Int32.self) else {
            throw SDLProtocolError(
                .invalidControlPayload,
                "hash id payload has \(payload.readableBytes) bytes, needs \(hashIDPayloadSize)", offset: 0)
        }
        return hashID
    }

    /// The parameters as a BSON document, as written for version 5 (empty when there are none).
    public var parameters: BSONDocument {
        switch self {
        case .heartbeat, .heartbeatACK, .endServiceACK, .registerSecondaryTransport,
            .registerSecondaryTransportACK, .serviceDataACK:
            return BSONDocument()
        case .startService(let value): return value.bson
        case .startServiceACK(let value): return value.bson
        case .startServiceNAK(let value), .endServiceNAK(let value), .registerSecondaryTransportNAK(let value):
            return value.bson
        case .endService(let value): return value.bson
        case .transportEventUpdate(let value): return value.bson
        }
    }

    /// The payload for a frame of `version`; see ``SDLControlMessage`` for what each version keeps.
    /// A message without parameters has an empty payload, in every version.
    public func payload(version: UInt8) -> ByteBuffer {
        var buffer = ByteBuffer()
        switch self {
        case .startService:
            break  // BSON in every version (the v1-header special case)
        case .startServiceACK(let ack) where version < 5:
            if let hashID = ack.hashID { buffer.writeInteger(hashID, endianness: .big) }
            return buffer
        case .endService(let end) where version < 5:
            if let hashID = end.hashID { buffer.writeInteger(hashID, endianness: .big) }
            return buffer
        default:
            guard version >= 5 else { return buffer }
        }
        let parameters = self.parameters
        if !parameters.isEmpty {
            buffer.writeBSONDocument(parameters)
        }
        return buffer
    }

    /// A control frame carrying this message: frame type control, frame info from the case, and
    /// the payload of ``payload(version:)``. `messageID` is not on the wire for version 1.
    public func makeFrame(version: UInt8, serviceType: SDLServiceType, sessionID: UInt8, messageID: UInt32) -> SDLFrame {
        let header = SDLFrameHeader(
            version: version,
            frameType: .control,
            serviceType: serviceType,
            frameInfo: frameInfo.rawValue,
            sessionID: sessionID,
            dataSize: 0,
            messageID: messageID
        )
        return SDLFrame(header: header, payload: payload(version: version))
    }
}
