import HeadUnitModel
import NIOCore
import SDLProtocol

/// A headless HMI for SDL Core as a pure state machine: messages from Core's HMI WebSocket go in,
/// messages to send come out. ``HMIConnection`` runs it over a WebSocket.
///
/// What it does, in Core's order (docs/protocol.md §k: Core serves no app before its HMI is ready):
/// 1. on connecting, `MB.registerComponent` for each of ``components`` on the one connection
///    (Core's message broker keeps one entry per component name, whichever socket it came on);
/// 2. when Core has answered them all, `MB.subscribeTo` each of ``subscriptions`` and
///    `BasicCommunication.OnReady`;
/// 3. answers every request Core sends: `IsReady`, capabilities, languages, system information and
///    vehicle type from the profile (``HMIAnswers``), everything else SUCCESS with what the method
///    needs (``HMIAnswers/answer(to:params:)``);
/// 4. holds the requests a driver answers (alerts, speech, sliders, choices) until their time runs
///    out or the control API answers them (``answerInteraction(appID:_:)``, ``expireInteractions(now:)``);
/// 5. answers Core's `Navigation` streaming requests and follows each app's streams
///    (``HeadlessHMI/streamSource(_:)``, HeadlessHMI+Streaming.swift);
/// 6. keeps the list of registered apps from `BasicCommunication.OnAppRegistered` and
///    `OnAppUnregistered`, and with `autoActivate` asks Core to activate each new one
///    (`SDL.ActivateApp`), as a driver tapping it would.
public struct HeadlessHMI: Sendable {
    /// The HMI interfaces of HMI_API.xml that the HMI registers as components.
    public static let components = ["BasicCommunication", "UI", "VR", "TTS", "Navigation", "VehicleInfo", "Buttons", "RC", "AppService"]

    /// The notifications of Core the HMI subscribes to (the message broker sends a notification
    /// only to its subscribers).
    public static let subscriptions = [
        "BasicCommunication.OnAppRegistered", "BasicCommunication.OnAppUnregistered", "BasicCommunication.OnPutFile",
        "BasicCommunication.OnFileRemoved", "BasicCommunication.OnSDLClose", "BasicCommunication.OnSDLPersistenceComplete",
        "BasicCommunication.OnResumeAudioSource", "BasicCommunication.OnSystemCapabilityUpdated",
        "SDL.OnStatusUpdate", "SDL.OnAppPermissionChanged", "SDL.OnSDLConsentNeeded",
        "Buttons.OnButtonSubscription", "VehicleInfo.OnVehicleData", "Navigation.OnVideoDataStreaming",
        "Navigation.OnAudioDataStreaming", "RC.OnRCStatus", "AppService.OnAppServiceData",
    ]

    /// An app Core announced with `BasicCommunication.OnAppRegistered`.
    public struct App: Sendable, Hashable {
        /// Core's HMI app id (`application.appID`), what every HMI message names the app by.
        public var appID: Int64
        public var appName: String
        /// The app's own id (`application.policyAppID`).
        public var policyAppID: String?
        /// The level this HMI last gave it (FULL after an activation it asked for).
        public var hmiLevel: String
        /// The app's `UI.Show` fields, merged as the head unit shows them (``applyShow(_:)``).
        public var show: [String: SDLJSON] = [:]
        /// The rest of what the HMI shows for it (``HMIScreen``): menu, media clock, properties,
        /// icon, template.
        public var screen = HMIScreen()
        /// What `OnAppRegistered` says of it (`application.isMediaApplication`, `appType`), when it does.
        public var isMediaApplication: Bool?
        public var appType: [SDLJSON]?
        /// The full path of its icon in `OnAppRegistered` (Core's icon storage), if it had one.
        public var registeredIcon: String?
        /// The files Core named for it (images' full paths, its icon), by name.
        public var files = HMIFileNames()
        /// Its video and audio streams (``HMIStream``), from Core's `Navigation` requests.
        public var videoStream = HMIStream()
        public var audioStream = HMIStream()
    }

    public enum Phase: Sendable, Hashable {
        case disconnected
        /// `MB.registerComponent` sent; the components Core has not answered yet.
        case registering(pending: Set<String>)
        /// Registered, subscribed, `OnReady` sent: Core may serve apps.
        case ready
    }

    public internal(set) var answers: HMIAnswers
    /// The vehicle data names Core subscribed to (`VehicleInfo.SubscribeVehicleData`, on behalf of
    /// its apps): what ``vehicleSample(_:)`` sends on.
    public private(set) var vehicleSubscriptions: Set<String> = []
    public var autoActivate: Bool
    /// Multiplies how long alerts, speech, sliders and choices wait (0.1 = ten times faster).
    public var timeScale: Double
    /// Vehicle data set through the control API, over the drive's (``overrideVehicleData(_:catalog:)``).
    public internal(set) var vehicleOverrides: [String: SDLJSON] = [:]
    /// Core's requests waiting for the driver, by request id.
    public internal(set) var interactions: [Int64: HMIInteraction] = [:]
    public private(set) var phase: Phase = .disconnected
    public private(set) var apps: [Int64: App] = [:]
    /// The last driver distraction state sent (`UI.OnDriverDistraction`).
    public internal(set) var driverDistraction = "DD_OFF"
    /// The app whose stream Core last asked the HMI to play (`Navigation.StartStream`,
    /// `StartAudioStream`): what `OnVideoDataStreaming` / `OnAudioDataStreaming`, which name no
    /// app, are about (Core streams one navigation app at a time: `StartNaviService`).
    var streamingApps: [HMIStream.Kind: Int64] = [:]
    /// The id of this HMI's next request: from the first component's id range once Core gave one.
    private var nextRequestID: Int64 = 1
    /// The component of each `MB.registerComponent` in flight, by request id.
    private var registrations: [Int64: String] = [:]
    /// What this HMI asked of Core and awaits, by request id.
    private var awaiting: [Int64: Awaited] = [:]

    /// A request of this HMI in flight: its method and the app it is about.
    private struct Awaited: Sendable {
        var method: String
        var appID: Int64?
    }

    public init(answers: HMIAnswers, autoActivate: Bool = false, timeScale: Double = 1) {
        self.answers = answers
        self.autoActivate = autoActivate
        self.timeScale = timeScale
    }

    /// The WebSocket is open: register the components.
    public mutating func connected() -> [HMIMessage] {
        apps = [:]
        awaiting = [:]
        registrations = [:]
        interactions = [:]
        streamingApps = [:]
        nextRequestID = 1
        phase = .registering(pending: Set(Self.components))
        return Self.components.map { component in
            let id = makeRequestID()
            registrations[id] = component
            return .request(id: id, method: "MB.registerComponent", params: ["componentName": .string(component)])
        }
    }

    /// The WebSocket closed: everything Core knew of this HMI is gone with it.
    public mutating func disconnected() {
        phase = .disconnected
        apps = [:]
        vehicleSubscriptions = []
        interactions = [:]
        streamingApps = [:]
        awaiting = [:]
        registrations = [:]
    }

    /// A message from Core at `now`; what to send back.
    public mutating func receive(_ message: HMIMessage, now: NIODeadline = .now()) throws(HMIError) -> [HMIMessage] {
        switch message {
        case .response(let id, let result):
            if let component = registrations.removeValue(forKey: id) {
                return registered(component, base: result.intValue)
            }
            // Core activated the app it was asked to (it tells the HMI nothing else of it).
            if let awaited = awaiting.removeValue(forKey: id), awaited.method == "SDL.ActivateApp", let appID = awaited.appID {
                apps[appID]?.hmiLevel = "FULL"
            }
            return []
        case .error(let id, _, let text, _):
            if let id, let component = registrations.removeValue(forKey: id) {
                throw HMIError(.registrationRefused, "Core refused the component \(component): \(text) (is another HMI connected?)")
            }
            if let id { awaiting.removeValue(forKey: id) }
            return []
        case .request(let id, let method, let params):
            return answerRequest(id: id, method: method, params: params, now: now)
        case .notification(let method, let params):
            return notified(method, params: params)
        }
    }

    /// Asks Core to activate an app (the driver taps it): `SDL.ActivateApp`.
    public mutating func activate(appID: Int64) throws(HMIError) -> [HMIMessage] {
        guard apps[appID] != nil else { throw HMIError(.unknownApp, "Core has registered no app with HMI id \(appID)") }
        let id = makeRequestID()
        awaiting[id] = Awaited(method: "SDL.ActivateApp", appID: appID)
        return [.request(id: id, method: "SDL.ActivateApp", params: ["appID": .int(appID)])]
    }

    /// A new sample of the vehicle (the simulator's drive or a trace): kept for `GetVehicleData`,
    /// and sent as `VehicleInfo.OnVehicleData` with the names Core subscribed to, when ready.
    public mutating func vehicleSample(_ values: [String: SDLJSON]) -> [HMIMessage] {
        let values = values.merging(vehicleOverrides) { $1 }
        answers.vehicleData.merge(values) { $1 }
        let subscribed = values.filter { vehicleSubscriptions.contains($0.key) }
        guard phase == .ready, !subscribed.isEmpty else { return [] }
        return [.notification(method: "VehicleInfo.OnVehicleData", params: subscribed)]
    }

    /// Sends a notification of the HMI to Core (button presses, commands, driver distraction, …).
    public func notify(_ method: String, _ params: [String: SDLJSON]) -> HMIMessage {
        .notification(method: method, params: params)
    }

    mutating func setLevel(_ appID: Int64, _ level: String) {
        apps[appID]?.hmiLevel = level
    }

    /// Changes a registered app (nothing when Core registered none with that id).
    mutating func updateApp(_ appID: Int64, _ change: (inout App) -> Void) {
        guard var app = apps[appID] else { return }
        change(&app)
        apps[appID] = app
    }

    private mutating func makeRequestID() -> Int64 {
        defer { nextRequestID += 1 }
        return nextRequestID
    }

    private mutating func registered(_ component: String, base: Int64?) -> [HMIMessage] {
        guard case .registering(var pending) = phase else { return [] }
        pending.remove(component)
        // Core hands each component a range of ids (1000 × n); requests use the first one's.
        if component == Self.components.first, let base { nextRequestID = max(nextRequestID, base) }
        guard pending.isEmpty else {
            phase = .registering(pending: pending)
            return []
        }
        phase = .ready
        var out: [HMIMessage] = Self.subscriptions.map { name in
            let id = makeRequestID()
            awaiting[id] = Awaited(method: "MB.subscribeTo")
            return .request(id: id, method: "MB.subscribeTo", params: ["propertyName": .string(name)])
        }
        out.append(.notification(method: "BasicCommunication.OnReady", params: [:]))
        return out
    }

    private mutating func answerRequest(id: Int64, method: String, params: [String: SDLJSON], now: NIODeadline) -> [HMIMessage] {
        let appID = params["appID"]?.intValue
        // Every image Core names for the app (in a Show, a menu, an alert …) may be drawn.
        if let appID { apps[appID]?.files.remember(imagesIn: .object(params)) }
        if Self.interactionFunctions[method] != nil {
            return openInteraction(id: id, method: method, params: params, now: now)
        }
        switch method {
        case "UI.ClosePopUp":
            let (closed, _) = abortInteraction(appID: appID, method: params["methodName"]?.stringValue, cancelID: nil)
            return closed + [.answer(id: id, method: method)]
        case "UI.EndAudioPassThru":
            // HMI_API.xml: Core stops the capture; the open recording ends SUCCESS first.
            let (closed, found) = closeAudioPassThru()
            return closed + [.answer(id: id, method: method, code: found ? .success : .rejected)]
        case "UI.CancelInteraction":
            let target = params["functionID"]?.intValue.flatMap { Self.cancellableMethods[$0] }
            guard let target else { return [.answer(id: id, method: method, code: .invalidID)] }
            let (closed, found) = abortInteraction(appID: appID, method: target, cancelID: params["cancelID"]?.intValue)
            return closed + [.answer(id: id, method: method, code: found ? .success : .ignored)]
        case "BasicCommunication.ActivateApp":
            if let appID { apps[appID]?.hmiLevel = params["level"]?.stringValue ?? "FULL" }
        case "UI.Show":
            if let appID { apps[appID]?.applyShow(params) }
        case _ where HMIScreen.methods.contains(method):
            if let appID { apps[appID]?.screen.apply(method, params, now: now) }
        case "BasicCommunication.CloseApplication":
            if let appID { apps[appID]?.hmiLevel = "NONE" }
        case "VehicleInfo.SubscribeVehicleData":
            vehicleSubscriptions.formUnion(params.keys.filter { $0 != "appID" && SubscriptionVehicleData.dataTypes[$0] != nil })
        case "VehicleInfo.UnsubscribeVehicleData":
            vehicleSubscriptions.subtract(params.keys)
        case "Navigation.SetVideoConfig":
            return [setVideoConfig(id: id, params: params)]
        case _ where Self.streamRequests[method] != nil:
            streamRequest(method, params: params)
        default:
            break
        }
        let (code, result) = answers.answer(to: method, params: params)
        return [.answer(id: id, method: method, code: code, params: result)]
    }

    private mutating func notified(_ method: String, params: [String: SDLJSON]) -> [HMIMessage] {
        switch method {
        case "BasicCommunication.OnAppRegistered":
            guard let application = params["application"]?.objectValue, let appID = application["appID"]?.intValue else { return [] }
            apps[appID] = App(registered: application, appID: appID)
            let displays = displaysUpdate(appID: appID)
            if autoActivate {
                return displays + ((try? activate(appID: appID)) ?? [])
            }
            return displays
        case "BasicCommunication.OnAppUnregistered":
            if let appID = params["appID"]?.intValue {
                apps[appID] = nil
                streamingApps = streamingApps.filter { $0.value != appID }
            }
            return []
        case "Navigation.OnVideoDataStreaming", "Navigation.OnAudioDataStreaming":
            dataStreaming(method == "Navigation.OnVideoDataStreaming" ? .video : .audio, available: params["available"]?.boolValue)
            return []
        default:
            return []
        }
    }
}

extension HeadlessHMI.App {
    /// An app as `BasicCommunication.OnAppRegistered` describes it (`application`, HMI_API.xml
    /// `HMIApplication`; Core's `MessageHelper::CreateHMIApplicationStruct`): its name and ids,
    /// whether it is a media app, its types, its icon's full path (only when the file exists on
    /// Core's side) and the color schemes it registered with.
    init(registered application: [String: SDLJSON], appID: Int64) {
        self.init(
            appID: appID, appName: application["appName"]?.stringValue ?? "",
            policyAppID: application["policyAppID"]?.stringValue, hmiLevel: "NONE"
        )
        isMediaApplication = application["isMediaApplication"]?.boolValue
        appType = application["appType"]?.arrayValue
        if let icon = application["icon"]?.stringValue, HMIFileNames.name(ofPath: icon) != nil {
            registeredIcon = icon
            files.remember(path: icon)
        }
        screen.applyTemplate(nil, day: application["dayColorScheme"], night: application["nightColorScheme"])
    }
}

extension HeadlessHMI {
    /// What an HMI tells Core of an app's screen once the app registers (generic_hmi does the
    /// same): `BasicCommunication.OnSystemCapabilityUpdated` with the profile's `DISPLAYS`
    /// capability for that app (HMI_API.xml; MOBILE_API.xml `DisplayCapability`). SDL Core 8.2
    /// answers an app's `GetSystemCapability` `DISPLAYS` only from it (DATA_NOT_AVAILABLE before),
    /// and passes it on to the app as `OnSystemCapabilityUpdated`.
    func displaysUpdate(appID: Int64) -> [HMIMessage] {
        guard let displays = answers.profile.systemCapability("DISPLAYS") else { return [] }
        return [notify("BasicCommunication.OnSystemCapabilityUpdated", ["systemCapability": displays, "appID": .int(appID)])]
    }
}
