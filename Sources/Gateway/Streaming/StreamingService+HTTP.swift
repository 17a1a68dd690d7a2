import HTTPAPISupport
import SDLClient
import SDLProtocol

/// How the HTTP API names SDL's streaming services (docs/protocol.md, streaming services):
/// `/v1/apps/{id}/video` is the video service (0x0B), `/v1/apps/{id}/audio-stream` the PCM audio
/// service (0x0A), so that the audio stream is never confused with audio pass-thru.
extension SDLStreamingService {
    /// The last path segment of the service's routes.
    var pathSegment: String {
        switch self {
        case .video: "video"
        case .audio: "audio-stream"
        }
    }

    /// For people: "video" / "audio".
    var noun: String {
        switch self {
        case .video: "video"
        case .audio: "audio"
        }
    }

    /// The gateway event that tells the service's state.
    var eventType: String {
        switch self {
        case .video: "videoStreaming"
        case .audio: "audioStreaming"
        }
    }

    /// The head unit's capability the defaults come from (GetSystemCapability, MOBILE_API.xml SystemCapabilityType).
    static let videoCapabilityType = "VIDEO_STREAMING"

    /// The app HMI types that may stream (MOBILE_API.xml AppHMIType; Core 8.2 refuses others, docs/protocol.md §k).
    static let streamingHMITypes: Set<String> = ["NAVIGATION", "PROJECTION"]

    /// The HMI levels in which a head unit accepts a streaming service (docs/protocol.md §k).
    static let streamingLevels: Set<SDLHMILevel> = [.full, .limited]
}
