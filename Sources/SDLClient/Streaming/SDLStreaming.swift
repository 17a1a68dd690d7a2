import NIOCore
import SDLProtocol

/// SDL's streaming services (docs/protocol.md §a "Service types", §o): video 0x0B (H.264, Core's
/// "MobileNav") and audio (PCM) 0x0A. Both are started on an established session with their own
/// StartService, carry raw stream bytes in data frames, and end with EndService.
public enum SDLStreamingService: String, Sendable, Hashable, CaseIterable {
    case video, audio

    /// The frame header's service type.
    public var serviceType: SDLServiceType {
        switch self {
        case .video: .video
        case .audio: .audio
        }
    }

    /// The streaming service of a frame's service type, `nil` for the others.
    public init?(serviceType: SDLServiceType) {
        switch serviceType {
        case .video: self = .video
        case .audio: self = .audio
        default: return nil
        }
    }

    /// The event-stream type of its ``SDLStreamingEvent``s: `videoStreaming` or `audioStreaming`.
    public var eventType: String { rawValue + "Streaming" }
}

/// What the app asks for in StartService(video): BSON `videoCodec`, `videoProtocol`, `width`,
/// `height` (docs/protocol.md §b "Video service"). All optional; a `nil` field is left out.
public struct SDLVideoStreamFormat: Sendable, Hashable {
    /// `VideoStreamingCodec` of MOBILE_API.xml, e.g. "H264".
    public var codec: String?
    /// `VideoStreamingProtocol` of MOBILE_API.xml, e.g. "RAW".
    public var `protocol`: String?
    public var width: Int?
    public var height: Int?

    public init(codec: String? = nil, protocol videoProtocol: String? = nil, width: Int? = nil, height: Int? = nil) {
        self.codec = codec
        self.protocol = videoProtocol
        self.width = width
        self.height = height
    }
}

/// What a StartServiceACK of a streaming service said.
public struct SDLStreamingAccepted: Sendable, Hashable {
    public var service: SDLStreamingService
    /// The payload limit of the service's data frames: the ACK's `mtu` (Core's
    /// `MaximumVideoPayloadSize`/`MaximumAudioPayloadSize`, else `MaximumPayloadSize`), or the
    /// session's when the ACK has none (v2–v4).
    public var mtu: Int
    /// Video only: the parameters the ACK carried (Core copies back those the app sent, §o).
    public var format: SDLVideoStreamFormat?

    public init(service: SDLStreamingService, mtu: Int, format: SDLVideoStreamFormat? = nil) {
        self.service = service
        self.mtu = mtu
        self.format = format
    }
}

/// A started streaming service and what it carried so far.
public struct SDLStreamingStatus: Sendable, Hashable {
    public var service: SDLStreamingService
    public var accepted: SDLStreamingAccepted
    /// Data frames sent.
    public var frames: Int
    /// Payload bytes sent.
    public var bytes: Int
    /// When the StartServiceACK arrived, on the session's clock.
    public var startedAt: NIODeadline

    public init(service: SDLStreamingService, accepted: SDLStreamingAccepted, frames: Int = 0, bytes: Int = 0, startedAt: NIODeadline) {
        self.service = service
        self.accepted = accepted
        self.frames = frames
        self.bytes = bytes
        self.startedAt = startedAt
    }
}

/// A streaming service started, ended or was refused (``SDLAppEvent/streaming(_:)``).
public struct SDLStreamingEvent: Sendable, Hashable {
    public enum State: String, Sendable {
        case started, ended, refused
    }

    public var service: SDLStreamingService
    public var state: State
    /// The NAK's reason; ``headUnitEnded`` (EndService from the head unit); ``linkLost``; `nil`
    /// when the app ended it.
    public var reason: String?

    public init(service: SDLStreamingService, state: State, reason: String? = nil) {
        self.service = service
        self.state = state
        self.reason = reason
    }

    /// The reason of a service the head unit ended with EndService (Core does when the app leaves
    /// FULL/LIMITED, §o).
    public static let headUnitEnded = "the head unit ended it"
    /// The reason of a service that ended with its session or link.
    public static let linkLost = "the link was lost"

    /// The event-stream `data` object: `{"state", "reason"}` (reason `null` when none).
    public var json: SDLJSON {
        ["state": .string(state.rawValue), "reason": reason.map(SDLJSON.string) ?? .null]
    }
}
