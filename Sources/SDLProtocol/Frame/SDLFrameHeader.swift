import NIOCore

/// The frame type in bits 2…0 of the first header byte (protocol spec §2.1 "Frame Type"; docs/protocol.md §a).
public enum SDLFrameType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case control = 0x0
    case single = 0x1
    case first = 0x2
    case consecutive = 0x3

    /// The lowercase name used in `inspect` output: `control|single|first|consecutive`.
    public var description: String {
        switch self {
        case .control: return "control"
        case .single: return "single"
        case .first: return "first"
        case .consecutive: return "consecutive"
        }
    }
}

/// The service a frame belongs to (protocol spec §2.2 "Service Type"; docs/protocol.md §a).
public enum SDLServiceType: UInt8, Sendable, Hashable, CaseIterable {
    case control = 0x00
    case rpc = 0x07
    /// PCM audio streaming.
    case audio = 0x0A
    /// H.264 video streaming ("mobile nav" in SDL Core).
    case video = 0x0B
    /// Hybrid service: RPCs with trailing binary data.
    case bulkData = 0x0F
}

/// The header in front of every SDL frame (protocol spec §2, docs/protocol.md §a).
///
/// ```
///  byte 0                 1              2            3            4…7          8…11 (v2+)
/// +----+---+-----+  +--------------+ +-----------+ +-----------+ +-----------+ +------------+
/// |ver | E | FT  |  | service type | | frame info| | session id| | data size | | message id |
/// |7..4| 3 | 2..0|  |              | |           | |           | | uint32 BE | | uint32 BE  |
/// +----+---+-----+  +--------------+ +-----------+ +-----------+ +-----------+ +------------+
/// ```
/// Version 1 headers are 8 bytes and have no message id; versions 2–5 use the 12-byte layout.
public struct SDLFrameHeader: Sendable, Hashable {
    /// The lowest and highest protocol versions this implementation reads and writes.
    public static let supportedVersions: ClosedRange<UInt8> = 1...5

    /// Header size for protocol version 1.
    public static let v1Size = 8
    /// Header size for protocol versions 2 to 5.
    public static let v2Size = 12

    /// Protocol version, 1…5.
    public var version: UInt8
    /// The E bit: the payload is encrypted (v2+; Core reads bit 3 as "protected" for every version).
    public var isEncrypted: Bool
    public var frameType: SDLFrameType
    public var serviceType: SDLServiceType
    /// Control frame kind, consecutive frame sequence number, or 0.
    public var frameInfo: UInt8
    public var sessionID: UInt8
    /// Bytes of payload in this frame.
    public var dataSize: UInt32
    /// The message id (v2+). Not on the wire for v1, where it reads as 0.
    public var messageID: UInt32

    public init(
        version: UInt8,
        isEncrypted: Bool = false,
        frameType: SDLFrameType,
        serviceType: SDLServiceType,
        frameInfo: UInt8 = 0,
        sessionID: UInt8,
        dataSize: UInt32,
        messageID: UInt32 = 0
    ) {
        self.version = version
        self.isEncrypted = isEncrypted
        self.frameType = frameType
        self.serviceType = serviceType
        self.frameInfo = frameInfo
        self.sessionID = sessionID
        self.dataSize = dataSize
        self.messageID = version == 1 ? 0 : messageID
    }

    /// 8 for version 1, 12 otherwise.
    public var size: Int { Self.size(forVersion: version) }

    public static func size(forVersion version: UInt8) -> Int {
        version == 1 ? v1Size : v2Size
    }
}

extension ByteBuffer {
    /// Reads an SDL frame header, or returns `nil` (consuming nothing) when fewer bytes than a
    /// whole header are readable. Throws on an unsupported version, frame type or service type,
    /// and on a First Frame whose data size is not 8 (protocol spec §2.1; docs/protocol.md §a).
    /// The payload limit is the decoder's business, not the header's.
    public mutating func readSDLFrameHeader() throws(SDLProtocolError) -> SDLFrameHeader? {
        guard let first = getInteger(at: readerIndex, as: UInt8.self) else { return nil }
        let version = first >> 4
        guard SDLFrameHeader.supportedVersions.contains(version) else {
            throw SDLProtocolError(.unsupportedVersion, "protocol version \(version) is not 1…5", offset: 0)
        }
        let size = SDLFrameHeader.size(forVersion: version)
        guard readableBytes >= size else { return nil }
        guard let frameType = SDLFrameType(rawValue: first & 0x07) else {
            throw SDLProtocolError(.unknownFrameType, "frame type \(first & 0x07) is reserved", offset: 0)
        }
        let serviceByte = getInteger(at: readerIndex + 1, as: UInt8.self)!
        guard let serviceType = SDLServiceType(rawValue: serviceByte) else {
            throw SDLProtocolError(.unknownServiceType, "service type 0x\(String(serviceByte, radix: 16)) is reserved", offset: 1)
        }
        let frameInfo = getInteger(at: readerIndex + 2, as: UInt8.self)!
        let sessionID = getInteger(at: readerIndex + 3, as: UInt8.self)!
        let dataSize = getInteger(at: readerIndex + 4, endianness: .big, as: UInt32.self)!
        let messageID = version == 1 ? 0 : getInteger(at: readerIndex + 8, endianness: .big, as: UInt32.self)!
        if frameType == .first && dataSize != 8 {
            throw SDLProtocolError(.invalidFirstFrameSize, "first frame data size is \(dataSize), not 8", offset: 4)
        }
        moveReaderIndex(forwardBy: size)
        return SDLFrameHeader(
            version: version,
            isEncrypted: first & 0x08 != 0,
            frameType: frameType,
            serviceType: serviceType,
            frameInfo: frameInfo,
            sessionID: sessionID,
            dataSize: dataSize,
            messageID: messageID
        )
    }

    /// Writes `header` in the 8-byte (v1) or 12-byte (v2+) layout; returns the bytes written.
    @discardableResult
    public mutating func writeSDLFrameHeader(_ header: SDLFrameHeader) -> Int {
        let first = header.version << 4 | (header.isEncrypted ? 0x08 : 0) | header.frameType.rawValue
        var written = writeInteger(first)
        written += writeInteger(header.serviceType.rawValue)
        written += writeInteger(header.frameInfo)
        written += writeInteger(header.sessionID)
        written += writeInteger(header.dataSize, endianness: .big)
        if header.version != 1 {
            written += writeInteger(header.messageID, endianness: .big)
        }
        return written
    }
}
