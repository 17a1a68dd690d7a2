import SDLProtocol

/// Something the head unit changed about an app, as ``SDLAppStateTracker`` publishes it. The
/// ``type`` names are the event types of the gateway's event stream (docs/architecture.md, Events).
public enum SDLAppEvent: Sendable, Hashable {
    /// The main window's OnHMIStatus changed.
    case hmiStatus(SDLHMIStatus)
    /// The SDL-0156 app state changed (``SDLAppState``); its data lists the row's
    /// ``SDLAppState/lifecycleCalls(from:to:)``.
    case appState(from: SDLAppState, to: SDLAppState)
    /// OnDriverDistraction: `on` for DD_ON, with its other parameters (lockScreenDismissalEnabled …).
    case driverDistraction(on: Bool, parameters: SDLJSON)
    /// The lock screen status changed (``SDLLockScreenStatus``).
    case lockScreen(SDLLockScreenStatus)
    /// OnPermissionsChange was applied; the table after the change.
    case permissions(SDLPermissionTable)
    /// The language or HMI display language changed (registration response or OnLanguageChange).
    case language(language: String?, hmiDisplayLanguage: String?)
    /// A system capability arrived (GetSystemCapability response or OnSystemCapabilityUpdated):
    /// its `systemCapabilityType` and the whole `SystemCapability` struct.
    case systemCapability(type: String, capability: SDLJSON)
    /// An audio pass-thru started, sent a chunk of audio (OnAudioPassThru's bulk data) or ended.
    case audioPassThru(SDLAudioPassThruEvent)
    /// A streaming service (video, audio) started, ended or was refused (docs/protocol.md §o).
    case streaming(SDLStreamingEvent)
    /// Any other notification, raw.
    case notification(name: String, parameters: SDLJSON)
    /// An RPC crossed the link (the traffic log's entry: a request sent, a response or
    /// notification received, with the response's latency).
    case rpc(SDLTrafficEntry)

    /// The event-stream type: `hmiStatus`, `appState`, `driverDistraction`, `lockScreen`,
    /// `permissions`, `language`, `systemCapability`, `audioPassThru`, `videoStreaming`,
    /// `audioStreaming`, `notification` or `rpc`.
    public var type: String {
        switch self {
        case .hmiStatus: "hmiStatus"
        case .appState: "appState"
        case .driverDistraction: "driverDistraction"
        case .lockScreen: "lockScreen"
        case .permissions: "permissions"
        case .language: "language"
        case .systemCapability: "systemCapability"
        case .audioPassThru: "audioPassThru"
        case .streaming(let event): event.service.eventType
        case .notification: "notification"
        case .rpc: "rpc"
        }
    }

    /// The event-stream `data` object.
    public var data: SDLJSON {
        switch self {
        case .hmiStatus(let status):
            return status.json
        case .appState(let from, let to):
            return [
                "from": .string(from.rawValue),
                "to": .string(to.rawValue),
                "lifecycle": .array(SDLAppState.lifecycleCalls(from: from, to: to).map { .string($0.rawValue) }),
            ]
        case .driverDistraction(let on, let parameters):
            var members = parameters.objectValue ?? [:]
            members["state"] = .string(on ? "DD_ON" : "DD_OFF")
            return .object(members)
        case .lockScreen(let status):
            return ["status": .string(status.rawValue)]
        case .permissions(let table):
            return table.json
        case .language(let language, let display):
            return ["language": language.map(SDLJSON.string) ?? .null, "hmiDisplayLanguage": display.map(SDLJSON.string) ?? .null]
        case .systemCapability(let type, let capability):
            return ["systemCapabilityType": .string(type), "systemCapability": capability]
        case .audioPassThru(let event):
            return event.json
        case .streaming(let event):
            return event.json
        case .notification(let name, let parameters):
            return ["name": .string(name), "parameters": parameters]
        case .rpc(let entry):
            return entry.json
        }
    }
}
