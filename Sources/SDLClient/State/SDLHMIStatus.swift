import SDLProtocol

/// The main window's status from OnHMIStatus (MOBILE_API.xml 8.0.0, FunctionID 32768;
/// docs/protocol.md §f): `hmiLevel`, `audioStreamingState`, `systemContext` are mandatory,
/// `videoStreamingState` defaults to STREAMABLE when absent.
///
/// Streaming state and system context are kept as the wire strings so that values added by
/// newer specs pass through unchanged.
public struct SDLHMIStatus: Sendable, Hashable {
    public var hmiLevel: SDLHMILevel
    public var audioStreamingState: String
    public var systemContext: String
    public var videoStreamingState: String

    public init(
        hmiLevel: SDLHMILevel,
        audioStreamingState: String = "NOT_AUDIBLE",
        systemContext: String = "MAIN",
        videoStreamingState: String = "STREAMABLE"
    ) {
        self.hmiLevel = hmiLevel
        self.audioStreamingState = audioStreamingState
        self.systemContext = systemContext
        self.videoStreamingState = videoStreamingState
    }

    /// Reads OnHMIStatus parameters; `nil` when a mandatory parameter is missing or the HMI
    /// level is not one of FULL, LIMITED, BACKGROUND, NONE.
    public init?(parameters: SDLJSON) {
        guard let levelName = parameters["hmiLevel"]?.stringValue,
            let level = SDLHMILevel(rawValue: levelName),
            let audio = parameters["audioStreamingState"]?.stringValue,
            let context = parameters["systemContext"]?.stringValue
        else { return nil }
        self.init(
            hmiLevel: level,
            audioStreamingState: audio,
            systemContext: context,
            videoStreamingState: parameters["videoStreamingState"]?.stringValue ?? "STREAMABLE"
        )
    }

    /// The OnHMIStatus parameters for the main window (windowID 0).
    public var json: SDLJSON {
        [
            "hmiLevel": .string(hmiLevel.rawValue),
            "audioStreamingState": .string(audioStreamingState),
            "systemContext": .string(systemContext),
            "videoStreamingState": .string(videoStreamingState),
        ]
    }
}
