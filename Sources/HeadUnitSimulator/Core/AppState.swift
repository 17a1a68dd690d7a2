import NIOCore
import SDLProtocol

/// A registered app, as the head unit (Core and its HMI) sees it.
public struct AppState: Sendable {
    /// The SDL session the app registered on.
    public internal(set) var sessionID: UInt8
    public internal(set) var connection: ConnectionID
    /// The policy app id: `fullAppID` if given, else `appID`, lowercased (docs/protocol.md §e).
    public internal(set) var appID: String
    public internal(set) var appName: String
    public internal(set) var vrSynonyms: [String]
    public internal(set) var isMediaApplication: Bool
    public internal(set) var appHMITypes: [String]
    public internal(set) var language: String
    public internal(set) var hmiDisplayLanguage: String
    /// The RegisterAppInterface parameters as received.
    public internal(set) var registration: SDLJSON

    public internal(set) var hmiLevel = "NONE"
    public internal(set) var audioStreamingState = "NOT_AUDIBLE"
    public internal(set) var systemContext = "MAIN"
    public internal(set) var videoStreamingState = "NOT_STREAMABLE"
    /// Set once the app has been in FULL.
    public internal(set) var hasBeenActivated = false
    /// The latest OnHashChange value sent (resumption, docs/protocol.md §k).
    public internal(set) var resumptionHash: String?

    /// Menu items by cmdID, submenus by menuID, choice sets by interactionChoiceSetID.
    public internal(set) var commands: [Int64: SDLJSON] = [:]
    public internal(set) var subMenus: [Int64: SDLJSON] = [:]
    public internal(set) var choiceSets: [Int64: SDLJSON] = [:]
    /// Files by `syncFileName`, with their bytes (``StoredFile``).
    public internal(set) var files: [String: StoredFile] = [:]
    public internal(set) var buttonSubscriptions: Set<String> = []
    public internal(set) var vehicleDataSubscriptions: Set<String> = []
    /// What the simulated screen shows for this app.
    public internal(set) var screen = ScreenState()

    /// The file SetAppIcon named, if any.
    public internal(set) var iconFile: String?
    /// What the app streamed on the video and audio services, once it started one.
    public internal(set) var streams: [StreamService: StreamRecord] = [:]
    /// Core's end-stream timers that run for this app, by service.
    var endStreamTimers: [StreamService: TimerID] = [:]

    /// Core's per-app counts of PutFile, ListFiles and DeleteFile made while in HMI NONE.
    var fileRequestsInNone: [String: Int] = [:]

    /// An interaction that has not answered yet (PerformInteraction, Alert, Slider …).
    var openInteraction: OpenInteraction?
    var audioPassThru: AudioPassThruState?
    var rateLimiter = RequestRateLimiter()

    /// The app as JSON for the control API.
    public var json: SDLJSON {
        var object: [String: SDLJSON] = [
            "appID": .string(appID),
            "appName": .string(appName),
            "session": .int(Int64(sessionID)),
            "connection": .int(Int64(connection.rawValue)),
            "isMediaApplication": .bool(isMediaApplication),
            "appHMIType": .array(appHMITypes.map { .string($0) }),
            "language": .string(language),
            "hmiDisplayLanguage": .string(hmiDisplayLanguage),
            "hmiLevel": .string(hmiLevel),
            "audioStreamingState": .string(audioStreamingState),
            "systemContext": .string(systemContext),
            "videoStreamingState": .string(videoStreamingState),
            "subscriptions": [
                "buttons": .array(buttonSubscriptions.sorted().map { .string($0) }),
                "vehicleData": .array(vehicleDataSubscriptions.sorted().map { .string($0) }),
            ],
            "files": .array(files.keys.sorted().map { .string($0) }),
            // The menu as the HMI would list it: AddSubMenu and AddCommand parameters, by id.
            "menu": [
                "subMenus": .array(subMenus.keys.sorted().compactMap { subMenus[$0] }),
                "commands": .array(commands.keys.sorted().compactMap { commands[$0] }),
            ],
            "choiceSets": .array(choiceSets.keys.sorted().compactMap { choiceSets[$0] }),
        ]
        // The file SetAppIcon named: the launcher draws it.
        if let iconFile { object["icon"] = .string(iconFile) }
        // What it streamed (video, audio), once it started a streaming service.
        if !streams.isEmpty {
            object["streams"] = .object(Dictionary(uniqueKeysWithValues: streams.map { ($0.key.rawValue, $0.value.json) }))
        }
        return .object(object)
    }
}

/// The simulated screen of one app: what Show, SetDisplayLayout, SetMediaClockTimer,
/// SetGlobalProperties and the open Alert or interaction put there.
public struct ScreenState: Sendable, Hashable {
    /// Show's text fields, graphics, soft buttons, template title … as last set.
    public var show: [String: SDLJSON] = [:]
    /// The template from SetDisplayLayout or Show's `templateConfiguration`.
    public var template = "DEFAULT"
    public var dayColorScheme: SDLJSON?
    public var nightColorScheme: SDLJSON?
    /// SetMediaClockTimer's last parameters.
    public var mediaClock: SDLJSON?
    /// SetGlobalProperties' properties as last set.
    public var globalProperties: [String: SDLJSON] = [:]
    /// The Alert, PerformInteraction, Slider or ScrollableMessage being shown.
    public var overlay: SDLJSON?

    public var json: SDLJSON {
        var value: [String: SDLJSON] = [
            "show": .object(show),
            "template": .string(template),
            "globalProperties": .object(globalProperties),
        ]
        value["dayColorScheme"] = dayColorScheme
        value["nightColorScheme"] = nightColorScheme
        value["mediaClock"] = mediaClock
        value["overlay"] = overlay
        return .object(value)
    }
}

/// A request the head unit answers later: when a timer fires or the control API says so.
struct OpenInteraction: Sendable, Hashable {
    var function: String
    var functionID: UInt32
    var correlationID: UInt32
    var parameters: SDLJSON
    var timer: TimerID?
}

struct AudioPassThruState: Sendable, Hashable {
    var correlationID: UInt32
    var functionID: UInt32
    var chunkTimer: TimerID
    var endTimer: TimerID
    var chunksSent: Int
    /// The requested PCM format.
    var tone: AudioPassThruTone
    /// `maxDuration` in milliseconds, unscaled.
    var maxDuration: Int
    var start: NIODeadline
}
