import NIOCore

/// One SDL frame: a header and exactly `header.dataSize` bytes of payload.
public struct SDLFrame: Sendable, Hashable {
    public var header: SDLFrameHeader
    public var payload: ByteBuffer

    /// A frame whose header's `dataSize` is set from `payload`.
    public init(header: SDLFrameHeader, payload: ByteBuffer) {
        var header = header
        header.dataSize = UInt32(payload.readableBytes)
        self.header = header
        self.payload = payload
    }
}

/// The kinds of control frame (protocol spec §3.1 "Control Frame Info"; docs/protocol.md §a).
public enum SDLControlFrameInfo: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case heartbeat = 0x00
    case startService = 0x01
    case startServiceACK = 0x02
    case startServiceNAK = 0x03
    case endService = 0x04
    case endServiceACK = 0x05
    case endServiceNAK = 0x06
    case registerSecondaryTransport = 0x07
    case registerSecondaryTransportACK = 0x08
    case registerSecondaryTransportNAK = 0x09
    case transportEventUpdate = 0xFD
    /// Deprecated by the spec; still a valid frame info value.
    case serviceDataACK = 0xFE
    case heartbeatACK = 0xFF

    /// The name used in `inspect` output, e.g. `StartServiceACK`.
    public var description: String {
        switch self {
        case .heartbeat: return "Heartbeat"
        case .startService: return "StartService"
        case .startServiceACK: return "StartServiceACK"
        case .startServiceNAK: return "StartServiceNAK"
        case .endService: return "EndService"
        case .endServiceACK: return "EndServiceACK"
        case .endServiceNAK: return "EndServiceNAK"
        case .registerSecondaryTransport: return "RegisterSecondaryTransport"
        case .registerSecondaryTransportACK: return "RegisterSecondaryTransportACK"
        case .registerSecondaryTransportNAK: return "RegisterSecondaryTransportNAK"
        case .transportEventUpdate: return "TransportEventUpdate"
        case .serviceDataACK: return "ServiceDataACK"
        case .heartbeatACK: return "HeartbeatACK"
        }
    }
}
