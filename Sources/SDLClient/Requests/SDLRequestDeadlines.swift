import NIOCore
import SDLProtocol

/// How long the client waits for the response to a request before failing it with
/// ``SDLClientError/Code/timedOut``.
///
/// The base is SDL Core's own bound: Core answers a request that waits on its HMI with
/// `GENERIC_ERROR` after `DefaultTimeout` (10000 ms) + `DefaultTimeoutCompensation` (1000 ms)
/// (docs/protocol.md §e, `command_impl.cc`). The client adds a ``margin`` on top so that Core's
/// answer normally arrives before the client gives up: 12 s by default.
///
/// RPCs that keep the HMI busy for a time the app chose are answered only when that time is over
/// (docs/protocol.md §k: "How long Alert, Speak, PerformInteraction take is decided by the HMI"),
/// so their own duration is added to the base (defaults from MOBILE_API.xml 8.0.0):
///
/// | function | added |
/// |---|---|
/// | Alert, SubtleAlert | `duration` (3000–10000, default 5000 ms), or the spoken `ttsChunks` if longer; with `softButtons` the user may keep it open: + ``softButtonAllowance`` |
/// | PerformInteraction | `timeout` (5000–100000, default 10000 ms); twice for `interactionMode` `BOTH` (a voice session, then the menu) |
/// | Slider | `timeout` (1000–65535, default 10000 ms) |
/// | ScrollableMessage | `timeout` (1000–65535, default 30000 ms) |
/// | PerformAudioPassThru | `maxDuration` (1–1000000 ms, mandatory) |
/// | Speak | an estimate of the spoken `ttsChunks`: ``speechPerCharacter`` per character |
///
/// An explicit per-request override replaces the computed value. Pure: `now` is passed in.
public struct SDLRequestDeadlines: Sendable, Hashable {
    /// `DefaultTimeout` of SDL Core (docs/protocol.md §e): 10000 ms.
    public var coreTimeout: TimeAmount
    /// `DefaultTimeoutCompensation` of SDL Core (docs/protocol.md §e): 1000 ms.
    public var coreCompensation: TimeAmount
    /// The client's own slack after Core's bound: 1000 ms.
    public var margin: TimeAmount
    /// The extra time an Alert or SubtleAlert with soft buttons may stay open for the user: 30 s.
    public var softButtonAllowance: TimeAmount
    /// The estimated time to speak one character of a TTS chunk: 100 ms (about 10 characters a
    /// second, slower than typical speech, so the estimate errs long).
    public var speechPerCharacter: TimeAmount

    public init(
        coreTimeout: TimeAmount = .milliseconds(10_000),
        coreCompensation: TimeAmount = .milliseconds(1_000),
        margin: TimeAmount = .milliseconds(1_000),
        softButtonAllowance: TimeAmount = .seconds(30),
        speechPerCharacter: TimeAmount = .milliseconds(100)
    ) {
        self.coreTimeout = coreTimeout
        self.coreCompensation = coreCompensation
        self.margin = margin
        self.softButtonAllowance = softButtonAllowance
        self.speechPerCharacter = speechPerCharacter
    }

    public static let `default` = SDLRequestDeadlines()

    /// The timeout of a request with no duration of its own: Core's bound plus ``margin`` (12 s).
    public var baseTimeout: TimeAmount { coreTimeout + coreCompensation + margin }

    /// How long to wait for the response to `function` with `parameters`; `override` wins.
    public func timeout(for function: String, parameters: SDLJSON, override: TimeAmount? = nil) -> TimeAmount {
        if let override { return override }
        return baseTimeout + ownDuration(of: function, parameters: parameters)
    }

    /// The deadline of a request sent at `now`; see ``timeout(for:parameters:override:)``.
    public func deadline(for function: String, parameters: SDLJSON, now: NIODeadline, override: TimeAmount? = nil) -> NIODeadline {
        now + timeout(for: function, parameters: parameters, override: override)
    }

    /// The time the HMI may take on `function` because of its own parameters (zero for most).
    public func ownDuration(of function: String, parameters: SDLJSON) -> TimeAmount {
        switch function {
        case "Alert", "SubtleAlert":
            // MOBILE_API.xml: Alert/SubtleAlert `duration`, minvalue 3000, maxvalue 10000, defvalue 5000.
            let shown = Self.milliseconds(parameters["duration"], default: 5_000)
            var duration = max(shown, speechEstimate(parameters["ttsChunks"]))
            if let buttons = parameters["softButtons"]?.arrayValue, !buttons.isEmpty {
                duration = duration + softButtonAllowance
            }
            return duration
        case "PerformInteraction":
            // MOBILE_API.xml: PerformInteraction `timeout`, 5000...100000, defvalue 10000.
            let timeout = Self.milliseconds(parameters["timeout"], default: 10_000)
            return parameters["interactionMode"]?.stringValue == "BOTH" ? timeout + timeout : timeout
        case "Slider":
            // MOBILE_API.xml: Slider `timeout`, 1000...65535, defvalue 10000.
            return Self.milliseconds(parameters["timeout"], default: 10_000)
        case "ScrollableMessage":
            // MOBILE_API.xml: ScrollableMessage `timeout`, 1000...65535, defvalue 30000.
            return Self.milliseconds(parameters["timeout"], default: 30_000)
        case "PerformAudioPassThru":
            // MOBILE_API.xml: PerformAudioPassThru `maxDuration`, 1...1000000, mandatory.
            return Self.milliseconds(parameters["maxDuration"], default: 0)
        case "Speak":
            return speechEstimate(parameters["ttsChunks"])
        default:
            return .nanoseconds(0)
        }
    }

    /// ``speechPerCharacter`` times the characters (Unicode scalars) of every chunk's `text`.
    public func speechEstimate(_ ttsChunks: SDLJSON?) -> TimeAmount {
        let characters = (ttsChunks?.arrayValue ?? []).reduce(0) { total, chunk in
            total + (chunk["text"]?.stringValue?.unicodeScalars.count ?? 0)
        }
        return speechPerCharacter * characters
    }

    /// A millisecond parameter clamped to `0...1_000_000` (the largest bound in the spec), or
    /// `default` when absent or not a number.
    private static func milliseconds(_ value: SDLJSON?, default defaultValue: Int64) -> TimeAmount {
        let milliseconds = value?.intValue ?? defaultValue
        return .milliseconds(min(max(milliseconds, 0), 1_000_000))
    }
}
