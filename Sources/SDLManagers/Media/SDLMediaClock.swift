import SDLProtocol

/// The declared media clock: where playback is, how long the track is, and whether it runs.
/// ``SDLMediaManager`` turns it into SetMediaClockTimer (MOBILE_API.xml `SetMediaClockTimer`,
/// `UpdateMode`, `AudioStreamingIndicator`).
public struct SDLMediaClock: Sendable, Hashable, Codable {
    /// MOBILE_API.xml has no such enum: the gateway's names for the three clock states.
    public enum State: String, Sendable, Hashable, Codable, CaseIterable {
        case playing = "PLAYING"
        case paused = "PAUSED"
        case stopped = "STOPPED"
    }

    /// Seconds since the start of the track.
    public var position: Int
    /// Seconds; `nil` for a stream of unknown length.
    public var duration: Int?
    public var state: State

    public init(position: Int, duration: Int? = nil, state: State) {
        self.position = position
        self.duration = duration
        self.state = state
    }

    /// A `StartTime` struct (hours, minutes, seconds) for `seconds`; negative counts as 0 and
    /// hours stop at 59, the struct's `maxvalue`.
    public static func startTime(_ seconds: Int) -> SDLJSON {
        let seconds = max(seconds, 0)
        let hours = min(seconds / 3600, 59)
        return [
            "hours": .int(Int64(hours)),
            "minutes": .int(Int64(seconds / 60 % 60)),
            "seconds": .int(Int64(seconds % 60)),
        ]
    }
}
