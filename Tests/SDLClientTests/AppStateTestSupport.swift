import NIOCore
import SDLProtocol

@testable import SDLClient

/// Helpers for the AppState suites: notifications as the head unit sends them.
enum AppStateFixture {
    static let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000)

    static func hmiStatus(_ level: SDLHMILevel, audio: String = "NOT_AUDIBLE", windowID: Int64? = nil) -> SDLJSON {
        var members: [String: SDLJSON] = [
            "hmiLevel": .string(level.rawValue),
            "audioStreamingState": .string(audio),
            "systemContext": "MAIN",
            "videoStreamingState": "NOT_STREAMABLE",
        ]
        if let windowID { members["windowID"] = .int(windowID) }
        return .object(members)
    }

    static let registrationResponse: SDLJSON = [
        "success": true,
        "resultCode": "SUCCESS",
        "language": "EN-US",
        "hmiDisplayLanguage": "EN-US",
        "vehicleType": ["make": "SDL", "model": "Generic", "modelYear": "2019", "trim": "SE"],
        "displayCapabilities": ["displayName": "GENERIC_DISPLAY"],
        "buttonCapabilities": [["name": "OK", "shortPressAvailable": true]],
        "sdlVersion": "8.2.0",
    ]

    /// A tracker put into `state` the way a head unit would.
    static func tracker(in state: SDLAppState) -> SDLAppStateTracker {
        var tracker = SDLAppStateTracker()
        if let level = state.hmiLevel {
            _ = tracker.apply(response: "RegisterAppInterface", parameters: registrationResponse, now: t0)
            _ = tracker.apply(notification: "OnHMIStatus", parameters: hmiStatus(level), now: t0)
        }
        return tracker
    }

    /// Moves `tracker` to `state`: OnHMIStatus for a level, a link loss for `disconnected`.
    static func move(_ tracker: inout SDLAppStateTracker, to state: SDLAppState) -> [SDLAppEvent] {
        if let level = state.hmiLevel {
            return tracker.apply(notification: "OnHMIStatus", parameters: hmiStatus(level), now: t0)
        }
        return tracker.linkDown(now: t0)
    }
}

extension [SDLAppEvent] {
    var appStateTransitions: [SDLAppEvent] { filter { $0.type == "appState" } }
    var lockScreenChanges: [SDLLockScreenStatus] {
        compactMap { if case .lockScreen(let status) = $0 { status } else { nil } }
    }
}
