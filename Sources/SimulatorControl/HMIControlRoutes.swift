import HTTPAPISupport
import HeadUnitModel
import HeadlessHMI
import Hummingbird
import SDLManagers
import SDLProtocol
import SDLTransport

/// The control API of `sdl-gateway hmi`: the simulator's paths where they mean the same thing,
/// acting on a real SDL Core through its HMI interface. Names are the simulator's too: an app by
/// its SDL appID (Core's `policyAppID`), by Core's HMI app id, or under `serve --hmi` by the
/// gateway's app id; a command, choice or soft button by its number or (under serve) by the id
/// the app declared to the gateway's managers (``GatewayNames``).
///
/// - `GET /status`: whether the HMI is connected and ready, and Core's address
/// - `GET /apps`, `GET /apps/{appID}`, `GET /apps/{appID}/screen` (what the head unit draws for
///   it: its `UI.Show` fields, template, menu, media clock, icon …)
/// - `GET /apps/{appID}/files/{name}`: a file Core named for the app (an image), from Core's storage
///   folder when the gateway can read it
/// - `PUT /apps/{appID}/hmi` `{"hmiLevel": "FULL"}`: SDL.ActivateApp; NONE, BACKGROUND, LIMITED
/// - `POST /apps/{appID}/commands/{cmdID}` `{"triggerSource": "MENU"|"VR"}`: UI/VR.OnCommand
/// - `POST /apps/{appID}/interaction` `{"choiceID", "sliderPosition", "result", "triggerSource", "text"}`:
///   the driver answers the app's open alert, slider, speech or PerformInteraction
/// - `POST /buttons/{name}/press` `{"mode", "appID", "softButtonID"}` (`customButtonID` too):
///   Buttons.OnButtonEvent/OnButtonPress
/// - `POST /apps/{appID}/touch` `{"type": "BEGIN", "x", "y"}` (or a list, as the simulator's):
///   UI.OnTouchEvent, which Core passes on to the NAVIGATION or PROJECTION app in FULL
/// - `GET`/`PUT /driver-distraction` `{"state": "DD_ON"}`: UI.OnDriverDistraction
/// - `GET`/`PUT /vehicle-data` `{"speed": 0, "fuelLevel": null}`: overrides over the drive
///   (`null` removes one); Core gets the subscribed ones as VehicleInfo.OnVehicleData
/// - WebSocket `GET /apps/{appID}/video`: the app's video stream as Core's socket consumer serves
///   it (``addWebSocket(to:)``); each app's JSON has its `streams` (state, url, bytes read)
public struct HMIControlRoutes: ControlRoutes {
    public let connection: HMIConnection
    /// The gateway's names (`serve --hmi`), taken where the routes take Core's.
    let names: GatewayNames

    /// - Parameter names: the gateway's names, under `serve`; ``GatewayNames/none`` standalone.
    public init(connection: HMIConnection, names: GatewayNames = .none) {
        self.connection = connection
        self.names = names
    }

    public static let operations: [APIOperation] = [
        APIOperation("GET", "status"), APIOperation("GET", "apps"), APIOperation("GET", "apps/{appID}"),
        APIOperation("PUT", "apps/{appID}/hmi"), APIOperation("GET", "apps/{appID}/screen"),
        APIOperation("GET", "apps/{appID}/files/{name}"),
        APIOperation("POST", "apps/{appID}/commands/{cmdID}"), APIOperation("POST", "apps/{appID}/interaction"),
        APIOperation("POST", "buttons/{name}/press"),
        APIOperation("GET", "driver-distraction"), APIOperation("PUT", "driver-distraction"),
        APIOperation("GET", "vehicle-data"), APIOperation("PUT", "vehicle-data"),
        APIOperation("GET", "apps/{appID}/video"), APIOperation("POST", "apps/{appID}/touch"),
    ]

    public func add<Context: RequestContext>(to router: some RouterMethods<Context>) {
        let connection = connection
        let routes = self
        router.get("status") { _, _ -> SDLJSON in
            let hmi = connection.snapshot
            let phase: String =
                switch hmi.phase {
                case .disconnected: "disconnected"
                case .registering: "registering"
                case .ready: "ready"
                }
            return ["core": .string(connection.address.description), "phase": .string(phase), "apps": .int(Int64(hmi.apps.count))]
        }
        router.get("apps") { _, _ -> SDLJSON in
            .array(connection.snapshot.apps.values.sorted { $0.appID < $1.appID }.map(connection.json(of:)))
        }
        router.get("apps/:appID") { _, context -> SDLJSON in
            connection.json(of: try Self.app(try routes.app(context).appID, connection))
        }
        router.get("apps/:appID/screen") { _, context -> SDLJSON in
            let appID = try routes.app(context).appID
            let hmi = connection.snapshot
            let app = try Self.app(appID, connection)
            return app.screenJSON(now: .now(), interactions: hmi.interactions(ofApp: appID).map(\.json))
        }
        addFiles(to: router)
        router.get("apps/:appID/video") { _, context -> Response in
            _ = try routes.app(context)
            throw HTTPProblem(
                status: .upgradeRequired, code: "websocket-required", title: "Open a WebSocket",
                detail: "the app's video stream is a WebSocket: GET with Upgrade: websocket")
        }
        router.post("apps/:appID/touch") { request, context -> SDLJSON in
            let appID = try routes.app(context).appID
            let touches = try SimulatorControlRoutes.touches(try await SimulatorControlRoutes.touchBody(request))
            let sent = try await Self.perform(connection) { hmi throws(HMIError) in try hmi.touch(appID: appID, touches) }
            return ["sent": .int(Int64(sent.count))]
        }
        router.put("apps/:appID/hmi") { request, context -> SDLJSON in
            let appID = try routes.app(context).appID
            let body = try await SimulatorControlRoutes.body(request, allowed: ["hmiLevel"])
            guard let level = try SimulatorControlRoutes.string(body, "hmiLevel") else {
                throw HTTPProblem.invalidBody("hmiLevel is required")
            }
            try await Self.perform(connection) { hmi throws(HMIError) in try hmi.setHMILevel(appID: appID, level) }
            return connection.json(of: try Self.app(appID, connection))
        }
        router.post("apps/:appID/commands/:cmdID") { request, context -> SDLJSON in
            let (appID, gatewayApps) = try routes.app(context)
            let commandID = try routes.names.number(.name(try context.parameters.decoded("cmdID")), .command, gatewayApps: gatewayApps)
            let body = try await SimulatorControlRoutes.body(request, optional: true, allowed: ["triggerSource"])
            let source = try SimulatorControlRoutes.string(body, "triggerSource") ?? "MENU"
            guard source == "MENU" || source == "VR" else { throw HTTPProblem.invalidBody("triggerSource is MENU or VR") }
            try await Self.perform(connection) { hmi throws(HMIError) in
                try hmi.triggerCommand(appID: appID, commandID: commandID, voice: source == "VR")
            }
            return ["appID": .int(appID), "cmdID": .int(commandID), "triggerSource": .string(source)]
        }
        router.post("apps/:appID/interaction") { request, context -> SDLJSON in
            let (appID, gatewayApps) = try routes.app(context)
            let body = try await SimulatorControlRoutes.body(
                request, allowed: ["choiceID", "sliderPosition", "result", "triggerSource", "text"])
            let choice = try ControlID.from(body, "choiceID")
            let answer = InteractionAnswer(
                choiceID: try choice.map { try routes.names.number($0, .choice, gatewayApps: gatewayApps) },
                sliderPosition: try ControlBody.sliderPosition(body),
                resultCode: try SimulatorControlRoutes.string(body, "result"),
                triggerSource: try SimulatorControlRoutes.string(body, "triggerSource"),
                manualTextEntry: try SimulatorControlRoutes.string(body, "text")
            )
            let sent = try await Self.perform(connection) { hmi throws(HMIError) in try hmi.answerInteraction(appID: appID, answer) }
            return ["appID": .int(appID), "answered": .array(sent.compactMap { $0.answeredMethod.map { .string($0) } })]
        }
        router.post("buttons/:name/press") { request, context -> SDLJSON in
            let name = try context.parameters.decoded("name")
            let body = try await SimulatorControlRoutes.body(
                request, optional: true, allowed: ["mode", "appID", "softButtonID", "customButtonID"])
            let mode = try SimulatorControlRoutes.string(body, "mode") ?? "SHORT"
            let app = try ControlBody.appName(body, "appID").map { try routes.app(named: $0) }
            let appID = app?.appID
            let customButtonID = try ControlBody.softButton(body).map {
                try routes.names.softButtonNumber($0, gatewayApps: app?.gatewayApps)
            }
            try await Self.perform(connection) { hmi throws(HMIError) in
                try hmi.pressButton(name, mode: mode, appID: appID, customButtonID: customButtonID)
            }
            return ["button": .string(name), "mode": .string(mode)]
        }
        router.get("driver-distraction") { _, _ -> SDLJSON in
            ["state": .string(connection.snapshot.driverDistraction)]
        }
        router.put("driver-distraction") { request, _ -> SDLJSON in
            let body = try await SimulatorControlRoutes.body(request, allowed: ["state"])
            guard let state = try SimulatorControlRoutes.string(body, "state") else { throw HTTPProblem.invalidBody("state is required") }
            try await Self.perform(connection) { hmi throws(HMIError) in try hmi.setDriverDistraction(state) }
            return ["state": .string(state)]
        }
        Self.addVehicleData(to: router, connection)
    }

    static func addVehicleData<Context: RequestContext>(to router: some RouterMethods<Context>, _ connection: HMIConnection) {
        router.get("vehicle-data") { _, _ -> SDLJSON in
            .object(connection.snapshot.vehicleData)
        }
        router.put("vehicle-data") { request, _ -> SDLJSON in
            let body = try await SimulatorControlRoutes.body(request)
            guard case .object(let values) = body else { throw HTTPProblem.invalidBody("the body must be an object of vehicle data") }
            try await Self.perform(connection) { hmi throws(HMIError) in try hmi.overrideVehicleData(values) }
            return .object(connection.snapshot.vehicleData)
        }
    }

    static func app(_ appID: Int64, _ connection: HMIConnection) throws -> HeadlessHMI.App {
        guard let app = connection.snapshot.apps[appID] else {
            throw HTTPProblem(
                status: .notFound, code: "app-not-found", title: "No such app", detail: "Core has registered no app with HMI id \(appID)")
        }
        return app
    }

    /// Applies `change` and returns what was sent to Core; HMIError as problems.
    @discardableResult
    static func perform(
        _ connection: HMIConnection, _ change: (inout HeadlessHMI) throws(HMIError) -> [HMIMessage]
    ) async throws -> [HMIMessage] {
        do {
            return try await connection.perform(change)
        } catch let error as HMIError {
            switch error.code {
            case .unknownApp: throw HTTPProblem(status: .notFound, code: "app-not-found", title: "No such app", detail: error.detail)
            case .noOpenInteraction:
                throw HTTPProblem(status: .conflict, code: "no-open-interaction", title: "Nothing to answer", detail: error.detail)
            case .notTouchable:
                throw HTTPProblem(
                    status: .conflict, code: "app-not-touchable", title: "Core would not pass the touch on", detail: error.detail)
            case .connectionFailed:
                throw HTTPProblem(
                    status: .serviceUnavailable, code: "not-connected", title: "SDL Core is not connected", detail: error.detail)
            default:
                throw HTTPProblem.invalidValue(error.detail)
            }
        }
    }
}
