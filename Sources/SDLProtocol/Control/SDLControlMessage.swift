/// A control frame as a typed value (protocol spec §3.1; docs/protocol.md §a "Control frame info
/// values" and §b "Protocol v5 BSON control payloads").
///
/// Every parameter is optional; the spec says a parameter with no data is left out, and `nil`
/// fields are never written. Which parameters survive on the wire depends on the version:
/// - version 5: all of them, as a BSON document (BSON keys and types are listed on each field);
/// - versions 2–4: only the hash id of StartServiceACK and EndService, as 4 bytes big-endian;
/// - version 1: nothing, except a StartService whose parameters (e.g. `protocolVersion` "5.4.0")
///   ride as BSON behind the v1 header: the spec's one special case (docs/protocol.md §a
///   "Opening handshake"). StartService parameters are written as BSON in every version.
public enum SDLControlMessage: Sendable, Hashable {
    case heartbeat
    case heartbeatACK
    case startService(StartService)
    case startServiceACK(StartServiceACK)
    case startServiceNAK(NAK)
    case endService(EndService)
    case endServiceACK
    case endServiceNAK(NAK)
    case registerSecondaryTransport
    case registerSecondaryTransportACK
    case registerSecondaryTransportNAK(NAK)
    case transportEventUpdate(TransportEventUpdate)
    /// Deprecated by the spec; carries no payload.
    case serviceDataACK

    /// The frame info byte for this message.
    public var frameInfo: SDLControlFrameInfo {
        switch self {
        case .heartbeat: return .heartbeat
        case .heartbeatACK: return .heartbeatACK
        case .startService: return .startService
        case .startServiceACK: return .startServiceACK
        case .startServiceNAK: return .startServiceNAK
        case .endService: return .endService
        case .endServiceACK: return .endServiceACK
        case .endServiceNAK: return .endServiceNAK
        case .registerSecondaryTransport: return .registerSecondaryTransport
        case .registerSecondaryTransportACK: return .registerSecondaryTransportACK
        case .registerSecondaryTransportNAK: return .registerSecondaryTransportNAK
        case .transportEventUpdate: return .transportEventUpdate
        case .serviceDataACK: return .serviceDataACK
        }
    }
}

extension SDLControlMessage {
    /// StartService parameters (RPC: `protocolVersion`; video: `height`, `width`, `videoProtocol`,
    /// `videoCodec`).
    public struct StartService: Sendable, Hashable {
        /// BSON `protocolVersion` (string), "Major.Minor.Patch".
        public var protocolVersion: String?
        /// BSON `height` (int32), video only.
        public var height: Int32?
        /// BSON `width` (int32), video only.
        public var width: Int32?
        /// BSON `videoProtocol` (string), video only.
        public var videoProtocol: String?
        /// BSON `videoCodec` (string), video only.
        public var videoCodec: String?

        public init(
            protocolVersion: String? = nil, height: Int32? = nil, width: Int32? = nil,
            videoProtocol: String? = nil, videoCodec: String? = nil
        ) {
            self.protocolVersion = protocolVersion
            self.height = height
            self.width = width
            self.videoProtocol = videoProtocol
            self.videoCodec = videoCodec
        }
    }

    /// StartServiceACK parameters (docs/protocol.md §b "StartServiceACK keys").
    public struct StartServiceACK: Sendable, Hashable {
        /// BSON `protocolVersion` (string): the version the head unit accepted.
        public var protocolVersion: String?
        /// BSON `hashId` (int32, read strictly); in v2–v4 the 4-byte big-endian payload.
        public var hashID: Int32?
        /// BSON `mtu` (written as int64; read as int64 or int32): the payload limit.
        public var mtu: Int64?
        /// BSON `secondaryTransports` (string array).
        public var secondaryTransports: [String]?
        /// BSON `audioServiceTransports` (int32 array): 1 primary, 2 secondary.
        public var audioServiceTransports: [Int32]?
        /// BSON `videoServiceTransports` (int32 array): 1 primary, 2 secondary.
        public var videoServiceTransports: [Int32]?
        /// BSON `authToken` (string), cloud apps only.
        public var authToken: String?
        /// BSON `make` (string).
        public var make: String?
        /// BSON `model` (string).
        public var model: String?
        /// BSON `modelYear` (string).
        public var modelYear: String?
        /// BSON `trim` (string).
        public var trim: String?
        /// BSON `systemSoftwareVersion` (string).
        public var systemSoftwareVersion: String?
        /// BSON `systemHardwareVersion` (string).
        public var systemHardwareVersion: String?
        /// BSON `height` (int32), video only.
        public var height: Int32?
        /// BSON `width` (int32), video only.
        public var width: Int32?
        /// BSON `videoProtocol` (string), video only.
        public var videoProtocol: String?
        /// BSON `videoCodec` (string), video only.
        public var videoCodec: String?

        public init(
            protocolVersion: String? = nil, hashID: Int32? = nil, mtu: Int64? = nil,
            secondaryTransports: [String]? = nil, audioServiceTransports: [Int32]? = nil,
            videoServiceTransports: [Int32]? = nil, authToken: String? = nil, make: String? = nil,
            model: String? = nil, modelYear: String? = nil, trim: String? = nil,
            systemSoftwareVersion: String? = nil, systemHardwareVersion: String? = nil,
            height: Int32? = nil, width: Int32? = nil, videoProtocol: String? = nil, videoCodec: String? = nil
        ) {
            self.protocolVersion = protocolVersion
            self.hashID = hashID
            self.mtu = mtu
            self.secondaryTransports = secondaryTransports
            self.audioServiceTransports = audioServiceTransports
            self.videoServiceTransports = videoServiceTransports
            self.authToken = authToken
            self.make = make
            self.model = model
            self.modelYear = modelYear
            self.trim = trim
            self.systemSoftwareVersion = systemSoftwareVersion
            self.systemHardwareVersion = systemHardwareVersion
            self.height = height
            self.width = width
            self.videoProtocol = videoProtocol
            self.videoCodec = videoCodec
        }
    }

    /// The parameters of StartServiceNAK, EndServiceNAK and RegisterSecondaryTransportNAK.
    public struct NAK: Sendable, Hashable {
        /// BSON `rejectedParams` (string array), e.g. `["hashId"]`.
        public var rejectedParams: [String]?
        /// BSON `reason` (string).
        public var reason: String?

        public init(rejectedParams: [String]? = nil, reason: String? = nil) {
            self.rejectedParams = rejectedParams
            self.reason = reason
        }
    }

    /// EndService parameters.
    public struct EndService: Sendable, Hashable {
        /// BSON `hashId` (int32, read strictly); in v2–v4 the 4-byte big-endian payload.
        /// Required by Core on EndService(RPC).
        public var hashID: Int32?

        public init(hashID: Int32? = nil) {
            self.hashID = hashID
        }
    }

    /// TransportEventUpdate parameters (head unit → app).
    public struct TransportEventUpdate: Sendable, Hashable {
        /// BSON `tcpIpAddress` (string); "" means TCP is unavailable.
        public var tcpIPAddress: String?
        /// BSON `tcpPort` (int32).
        public var tcpPort: Int32?

        public init(tcpIPAddress: String? = nil, tcpPort: Int32? = nil) {
            self.tcpIPAddress = tcpIPAddress
            self.tcpPort = tcpPort
        }
    }
}

/// The BSON keys of control payloads (docs/protocol.md §b; core bson_object_keys.cc).
enum SDLControlKey {
    static let protocolVersion = "protocolVersion"
    static let hashID = "hashId"
    static let mtu = "mtu"
    static let rejectedParams = "rejectedParams"
    static let reason = "reason"
    static let secondaryTransports = "secondaryTransports"
    static let audioServiceTransports = "audioServiceTransports"
    static let videoServiceTransports = "videoServiceTransports"
    static let authToken = "authToken"
    static let make = "make"
    static let model = "model"
    static let modelYear = "modelYear"
    static let trim = "trim"
    static let systemSoftwareVersion = "systemSoftwareVersion"
    static let systemHardwareVersion = "systemHardwareVersion"
    static let height = "height"
    static let width = "width"
    static let videoProtocol = "videoProtocol"
    static let videoCodec = "videoCodec"
    static let tcpIPAddress = "tcpIpAddress"
    static let tcpPort = "tcpPort"
}
