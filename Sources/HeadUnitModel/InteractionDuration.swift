import SDLProtocol

/// How long a head unit shows or speaks an interaction before it answers by itself, as the
/// simulator and the headless HMI both time them (MOBILE_API.xml Alert `duration`, Speak
/// `ttsChunks`, ScrollableMessage, Slider and PerformInteraction `timeout`, PerformAudioPassThru
/// `maxDuration`; HMI_API.xml names these parameters alike).
public enum InteractionDuration {
    /// The time in ms: an Alert's `duration` (5000), speech at 60 ms a character (at least 1 s), a
    /// ScrollableMessage's `timeout` (30000), a Slider's or PerformInteraction's `timeout` (10000),
    /// a PerformAudioPassThru's `maxDuration` (10000); 10000 for anything else.
    public static func milliseconds(of function: String, parameters: SDLJSON) -> Int64 {
        switch function {
        case "Alert", "SubtleAlert":
            return parameters["duration"]?.intValue ?? 5000
        case "Speak":
            let characters = (parameters["ttsChunks"]?.arrayValue ?? []).reduce(0) { $0 + ($1["text"]?.stringValue?.count ?? 0) }
            return max(1000, Int64(characters) * 60)
        case "ScrollableMessage":
            return parameters["timeout"]?.intValue ?? 30000
        case "Slider", "PerformInteraction":
            return parameters["timeout"]?.intValue ?? 10000
        case "PerformAudioPassThru":
            return parameters["maxDuration"]?.intValue ?? 10000
        default:
            return 10000
        }
    }
}
