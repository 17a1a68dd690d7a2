import NIOCore
import SDLProtocol
import SDLSpec

/// The state an app session keeps from what the head unit says: HMI status of the main window,
/// the SDL-0156 ``SDLAppState``, driver distraction and the lock screen, the permission table,
/// capabilities, language, subscriptions and a bounded traffic log.
///
/// A pure value: the session feeds it every notification and the RegisterAppInterface and
/// GetSystemCapability responses, tells it when the link went down, and publishes the
/// ``SDLAppEvent``s it returns. Time is passed in; nothing here reads a clock.
///
/// - OnHMIStatus (docs/protocol.md §f, §k): only the main window (`windowID` absent or 0)
///   counts; other windows' statuses come back as ``SDLAppEvent/notification(name:parameters:)``.
///   An OnHMIStatus implies a registered app. ``SDLAppEvent/hmiStatus(_:)`` is published when the
///   status changed.
/// - Registration: a successful RegisterAppInterface response (`success: true`, including
///   WARNINGS and RESUME_FAILED) registers the app at HMI NONE until the first OnHMIStatus;
///   OnAppInterfaceUnregistered or ``linkDown(now:)`` make it ``SDLAppState/disconnected`` and
///   forget HMI status, driver distraction, "launched" and the permission table (a new
///   registration gets new ones). Registration, capabilities, language and subscriptions stay as
///   last known: subscriptions are what to subscribe again after reconnecting.
/// - OnHashChange (docs/protocol.md §k "Resumption"): ``latestHashID`` keeps the latest `hashID`.
public struct SDLAppStateTracker: Sendable {
    /// The catalog that names function ids of ``apply(_:now:)``.
    public let catalog: SDLCatalog
    public private(set) var isRegistered = false
    /// The main window's last OnHMIStatus on this registration.
    public private(set) var hmiStatus: SDLHMIStatus?
    /// The last OnDriverDistraction on this registration: `true` for DD_ON, `nil` before any.
    public private(set) var driverDistraction: Bool?
    /// Whether the app has been in FULL or LIMITED since it was last in NONE (lock screen rules).
    public private(set) var userSelected = false
    /// The permission table; `nil` before the first OnPermissionsChange of this registration.
    public private(set) var permissions: SDLPermissionTable?
    /// The last successful RegisterAppInterface response parameters.
    public private(set) var registration: SDLJSON?
    /// System capabilities by `systemCapabilityType` (GetSystemCapability, OnSystemCapabilityUpdated).
    public private(set) var systemCapabilities: [String: SDLJSON] = [:]
    public private(set) var language: String?
    public private(set) var hmiDisplayLanguage: String?
    /// The latest OnHashChange `hashID`: what a new RegisterAppInterface asks to resume
    /// (docs/protocol.md §k "Resumption": keep the latest one). It survives ``linkDown(now:)``.
    public private(set) var latestHashID: String?
    /// The time of the last change applied.
    public private(set) var lastUpdate: NIODeadline?
    public var buttonSubscriptions = SDLSubscriptionCounter()
    public var vehicleDataSubscriptions = SDLSubscriptionCounter()
    public var trafficLog: SDLTrafficLog
    /// The audio pass-thru running: its PerformAudioPassThru sent and not answered
    /// (``sent(_:now:)``); nil when none is.
    public internal(set) var audioPassThru: SDLAudioPassThruRecording?
    /// When ``audioPassThru`` has to have been answered: its `maxDuration` and Core's margin
    /// after it was sent. A new request replaces a recording whose answer never came.
    var audioPassThruDeadline: NIODeadline?
    /// The chunks of audio ``audioPassThru`` has sent.
    public internal(set) var audioPassThruChunks = 0

    /// Names of the RegisterAppInterface response parameters that describe the head unit
    /// (MOBILE_API.xml 8.0.0; docs/protocol.md §f).
    public static let registrationCapabilityNames: [String] = [
        "displayCapabilities", "buttonCapabilities", "softButtonCapabilities", "presetBankCapabilities",
        "hmiZoneCapabilities", "speechCapabilities", "prerecordedSpeech", "vrCapabilities",
        "audioPassThruCapabilities", "pcmStreamCapabilities", "vehicleType", "supportedDiagModes",
        "hmiCapabilities", "sdlVersion", "systemSoftwareVersion",
    ]

    public init(catalog: SDLCatalog = .builtIn, trafficLogCapacity: Int = SDLTrafficLog.defaultCapacity) {
        self.catalog = catalog
        self.trafficLog = SDLTrafficLog(capacity: trafficLogCapacity)
    }

    // MARK: Derived state

    /// The SDL-0156 app state.
    public var appState: SDLAppState {
        isRegistered ? SDLAppState(hmiLevel: hmiLevel) : .disconnected
    }

    /// The main window's HMI level; NONE when registered without an OnHMIStatus yet, and when
    /// not registered.
    public var hmiLevel: SDLHMILevel { hmiStatus?.hmiLevel ?? SDLHMILevel.none }

    /// The lock screen status by the rules of ``SDLLockScreenStatus``.
    public var lockScreen: SDLLockScreenStatus {
        SDLLockScreenStatus(
            hmiLevel: isRegistered ? hmiLevel : nil,
            driverDistraction: driverDistraction,
            userSelected: userSelected
        )
    }

    /// The registration response's head-unit capabilities present in it, by parameter name.
    public var capabilities: [String: SDLJSON] {
        guard let members = registration?.objectValue else { return [:] }
        return members.filter { Self.registrationCapabilityNames.contains($0.key) }
    }

    // MARK: Input

    /// Applies a notification from the head unit, naming it by its function id.
    public mutating func apply(_ notification: SDLRPCMessage, now: NIODeadline) -> [SDLAppEvent] {
        let name = catalog.functionName(forID: notification.functionID) ?? String(notification.functionID)
        if name == "OnAudioPassThru" { return [audioChunk(notification.bulkData ?? ByteBuffer())] }
        return apply(notification: name, parameters: notification.parameters, now: now)
    }

    /// Applies a notification from the head unit by its function name.
    public mutating func apply(notification name: String, parameters: SDLJSON, now: NIODeadline) -> [SDLAppEvent] {
        let before = Snapshot(self)
        var events: [SDLAppEvent] = []
        switch name {
        case "OnHMIStatus":
            let window = parameters["windowID"]?.intValue ?? 0
            guard window == 0, let status = SDLHMIStatus(parameters: parameters) else {
                return [.notification(name: name, parameters: parameters)]
            }
            isRegistered = true
            switch status.hmiLevel {
            case .full, .limited: userSelected = true
            case .none: userSelected = false
            case .background: break
            }
            if status != hmiStatus { events.append(.hmiStatus(status)) }
            hmiStatus = status
        case "OnDriverDistraction":
            guard let state = parameters["state"]?.stringValue, state == "DD_ON" || state == "DD_OFF" else {
                return [.notification(name: name, parameters: parameters)]
            }
            driverDistraction = state == "DD_ON"
            events.append(.driverDistraction(on: state == "DD_ON", parameters: parameters))
        case "OnPermissionsChange":
            var table = permissions ?? SDLPermissionTable()
            table.apply(parameters)
            permissions = table
            events.append(.permissions(table))
        case "OnLanguageChange":
            events += updateLanguage(parameters)
        case "OnSystemCapabilityUpdated":
            events += updateSystemCapability(parameters["systemCapability"])
        case "OnAppInterfaceUnregistered":
            events.append(.notification(name: name, parameters: parameters))
            forgetRegistration()
        case "OnHashChange":
            if let hash = parameters["hashID"]?.stringValue { latestHashID = hash }
            return [.notification(name: name, parameters: parameters)]
        default:
            return [.notification(name: name, parameters: parameters)]
        }
        return finish(events, before: before, now: now)
    }

    /// Applies a response the state depends on: RegisterAppInterface or GetSystemCapability
    /// (named by its function id). Other responses change nothing.
    public mutating func apply(response: SDLRPCMessage, now: NIODeadline) -> [SDLAppEvent] {
        guard let name = catalog.functionName(forID: response.functionID) else { return [] }
        return audioPassThruAnswered(response, name: name) + apply(response: name, parameters: response.parameters, now: now)
    }

    /// Applies a response by its function name. Failed responses (`success` not true) change nothing.
    public mutating func apply(response name: String, parameters: SDLJSON, now: NIODeadline) -> [SDLAppEvent] {
        guard parameters["success"]?.boolValue == true else { return [] }
        let before = Snapshot(self)
        var events: [SDLAppEvent] = []
        switch name {
        case "RegisterAppInterface":
            if !isRegistered {
                hmiStatus = nil
                driverDistraction = nil
                userSelected = false
                permissions = nil
            }
            isRegistered = true
            registration = parameters
            events += updateLanguage(parameters)
        case "GetSystemCapability":
            events += updateSystemCapability(parameters["systemCapability"])
        default:
            return []
        }
        return finish(events, before: before, now: now)
    }

    /// Records an RPC that crossed the link in the traffic log, named by its function id; the
    /// returned event carries the entry.
    public mutating func record(_ direction: SDLTrafficEntry.Direction, _ rpc: SDLRPCMessage, now: NIODeadline) -> SDLAppEvent {
        let name = catalog.functionName(forID: rpc.functionID) ?? String(rpc.functionID)
        let entry = trafficLog.record(
            direction, rpcType: rpc.rpcType, function: name, correlationID: rpc.correlationID, parameters: rpc.parameters, now: now
        )
        return .rpc(entry)
    }

    /// The link went down (closed, heartbeat or idle timeout) or the session ended: the app is
    /// ``SDLAppState/disconnected``.
    public mutating func linkDown(now: NIODeadline) -> [SDLAppEvent] {
        let before = Snapshot(self)
        forgetRegistration()
        trafficLog.clearPending()
        return finish(audioPassThruLinkDown(), before: before, now: now)
    }

    // MARK: Permissions

    /// Refuses a request the permission table does not allow at `hmiLevel` (a level name such as
    /// "FULL"), with ``SDLClientError/Code/notPermitted`` naming the levels that would allow it.
    /// Before any OnPermissionsChange, everything is allowed: the head unit decides.
    public func preflight(function: String, hmiLevel: String) throws(SDLClientError) {
        guard let permissions else { return }
        guard let item = permissions.items[function] else {
            throw SDLClientError(.notPermitted, "\(function) is not in the app's permission table; no HMI level allows it")
        }
        if let level = SDLHMILevel(rawValue: hmiLevel), item.allows(level) { return }
        let levels = item.permittedLevels.map(\.rawValue)
        if let level = SDLHMILevel(rawValue: hmiLevel), item.userDisallowedLevels.contains(level) {
            throw SDLClientError(.notPermitted, "\(function) is disallowed by the user in HMI level \(hmiLevel)")
        }
        let allowed = levels.isEmpty ? "no HMI level allows it" : "allowed in \(levels.joined(separator: ", "))"
        throw SDLClientError(.notPermitted, "\(function) is not allowed in HMI level \(hmiLevel); \(allowed)")
    }

    /// ``preflight(function:hmiLevel:)`` at the current HMI level.
    public func preflight(function: String) throws(SDLClientError) {
        try preflight(function: function, hmiLevel: hmiLevel.rawValue)
    }

    // MARK: Helpers

    private mutating func forgetRegistration() {
        isRegistered = false
        hmiStatus = nil
        driverDistraction = nil
        userSelected = false
        permissions = nil
    }

    private mutating func updateLanguage(_ parameters: SDLJSON) -> [SDLAppEvent] {
        let newLanguage = parameters["language"]?.stringValue ?? language
        let newDisplay = parameters["hmiDisplayLanguage"]?.stringValue ?? hmiDisplayLanguage
        guard newLanguage != language || newDisplay != hmiDisplayLanguage else { return [] }
        language = newLanguage
        hmiDisplayLanguage = newDisplay
        return [.language(language: newLanguage, hmiDisplayLanguage: newDisplay)]
    }

    private mutating func updateSystemCapability(_ capability: SDLJSON?) -> [SDLAppEvent] {
        guard let capability, let type = capability["systemCapabilityType"]?.stringValue else { return [] }
        systemCapabilities[type] = capability
        return [.systemCapability(type: type, capability: capability)]
    }

    /// Adds the derived-state events (app state, then lock screen) and stamps the time.
    private mutating func finish(_ events: [SDLAppEvent], before: Snapshot, now: NIODeadline) -> [SDLAppEvent] {
        var events = events
        let after = Snapshot(self)
        if after.appState != before.appState {
            events.append(.appState(from: before.appState, to: after.appState))
        }
        if after.lockScreen != before.lockScreen {
            events.append(.lockScreen(after.lockScreen))
        }
        if !events.isEmpty { lastUpdate = now }
        return events
    }

    private struct Snapshot {
        var appState: SDLAppState
        var lockScreen: SDLLockScreenStatus
        init(_ tracker: SDLAppStateTracker) {
            appState = tracker.appState
            lockScreen = tracker.lockScreen
        }
    }
}
