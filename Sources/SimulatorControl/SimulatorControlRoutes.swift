import HTTPAPISupport
import HeadUnitModel
import Hummingbird
import HeadUnitSimulator
import NIOCore
import SDLManagers
import SDLProtocol

/// The simulator's control API: JSON over HTTP, served on `simulate --control` and mounted at
/// `/v1/simulator` by `serve --simulate`. Every path is in `openapi.yaml`.
public struct SimulatorControlRoutes: ControlRoutes {
    /// Control bodies are small: an HMI change, a button, vehicle data, a fault.
    public static let maximumBodySize = 64 * 1024
    /// The longest response delay a fault may ask for: 10 minutes, in milliseconds.
    public static let maximumFaultDelay: Int64 = 600_000

    let simulator: SimulatedHeadUnit
    /// The gateway's names of apps, menu entries, choices and soft buttons (`serve --simulate`),
    /// taken where the routes take the head unit's (``GatewayNames``).
    let names: GatewayNames

    /// - Parameter names: the gateway's names, under `serve`; ``GatewayNames/none`` standalone.
    public init(simulator: SimulatedHeadUnit, names: GatewayNames = .none) {
        self.simulator = simulator
        self.names = names
    }

    /// Every operation, with its path relative to where the routes are mounted; tests check it
    /// against the routes and `openapi.yaml`.
    public static let operations: [APIOperation] =
        [
            APIOperation("GET", "apps"), APIOperation("GET", "apps/{appID}"), APIOperation("PUT", "apps/{appID}/hmi"),
            APIOperation("GET", "apps/{appID}/screen"), APIOperation("POST", "apps/{appID}/commands/{cmdID}"),
            APIOperation("POST", "apps/{appID}/interaction"), APIOperation("POST", "buttons/{name}/press"),
            APIOperation("GET", "driver-distraction"), APIOperation("PUT", "driver-distraction"),
            APIOperation("GET", "vehicle-data"), APIOperation("PUT", "vehicle-data"),
            APIOperation("GET", "log", query: ["limit"]), APIOperation("GET", "faults"), APIOperation("POST", "faults"),
            APIOperation("DELETE", "faults"), APIOperation("POST", "restart"), APIOperation("GET", "feed"), APIOperation("PUT", "feed"),
        ] + fileOperations + streamOperations

    /// Adds the routes to `router` (a router or a group such as `router.group("v1/simulator")`).
    public func add<Context: RequestContext>(to router: some RouterMethods<Context>) {
        router.get("apps") { _, _ -> SDLJSON in
            .array(simulator.snapshot.appList.map(\.json))
        }
        router.get("apps/:appID") { _, context -> SDLJSON in
            let named = try context.parameters.decoded("appID")
            return try simulator.perform { unit, _ in (try Self.control { try unit.requireApp(resolveApp(named, in: unit).appID).json }, [])
            }
        }
        addFileRoutes(to: router)
        addStreamRoutes(to: router)
        router.put("apps/:appID/hmi") { request, context -> SDLJSON in
            let named = try context.parameters.decoded("appID")
            let body = try await Self.body(request, allowed: ["hmiLevel", "audioStreamingState", "systemContext"])
            let level = try Self.string(body, "hmiLevel")
            let audio = try Self.string(body, "audioStreamingState")
            let systemContext = try Self.string(body, "systemContext")
            return try simulator.perform { unit, now in
                let appID = try resolveApp(named, in: unit).appID
                let actions = try Self.control {
                    try unit.setHMI(appID: appID, hmiLevel: level, audioStreamingState: audio, systemContext: systemContext, now: now)
                }
                return (try Self.control { try unit.requireApp(appID).json }, actions)
            }
        }
        router.get("apps/:appID/screen") { _, context -> SDLJSON in
            let named = try context.parameters.decoded("appID")
            return try simulator.perform { unit, now in
                var screen = try Self.control { try unit.requireApp(resolveApp(named, in: unit).appID).screen.json }
                // Where a running clock is now, so a viewer can run it from here.
                if var clock = screen["mediaClock"]?.objectValue, let position = MediaClock.position(.object(clock), now: now) {
                    clock["currentSeconds"] = .double(position)
                    screen = .object((screen.objectValue ?? [:]).merging(["mediaClock": .object(clock)]) { $1 })
                }
                // And how long the open pop-up has left before the head unit ends it.
                if var overlay = screen["overlay"]?.objectValue, let ends = overlay["endsAtUptimeMs"]?.intValue {
                    overlay["remainingMs"] = .int(max(0, ends - Int64(now.uptimeNanoseconds / 1_000_000)))
                    screen = .object((screen.objectValue ?? [:]).merging(["overlay": .object(overlay)]) { $1 })
                }
                return (screen, [])
            }
        }
        router.post("apps/:appID/commands/:cmdID") { request, context -> SDLJSON in
            let named = try context.parameters.decoded("appID")
            let command = ControlID.name(try context.parameters.decoded("cmdID"))
            let body = try await Self.body(request, optional: true, allowed: ["triggerSource"])
            let source = try Self.string(body, "triggerSource") ?? "MENU"
            return try simulator.perform { unit, now in
                let (appID, gatewayApps) = try resolveApp(named, in: unit)
                let commandID = try names.number(command, .command, gatewayApps: gatewayApps)
                let actions = try Self.control {
                    try unit.triggerCommand(appID: appID, commandID: commandID, triggerSource: source, now: now)
                }
                return (["appID": .string(appID), "cmdID": .int(commandID), "triggerSource": .string(source)], actions)
            }
        }
        router.post("apps/:appID/interaction") { request, context -> SDLJSON in
            let named = try context.parameters.decoded("appID")
            let body = try await Self.body(request, allowed: ["choiceID", "sliderPosition", "result", "triggerSource", "text"])
            let choice = try ControlID.from(body, "choiceID")
            var answer = InteractionAnswer(
                choiceID: nil,
                sliderPosition: try ControlBody.sliderPosition(body),
                resultCode: try Self.string(body, "result"),
                triggerSource: try Self.string(body, "triggerSource"),
                manualTextEntry: try Self.string(body, "text")
            )
            return try simulator.perform { unit, now in
                let (appID, gatewayApps) = try resolveApp(named, in: unit)
                answer.choiceID = try choice.map { try names.number($0, .choice, gatewayApps: gatewayApps) }
                return try Self.control { try unit.answerInteraction(appID: appID, answer, now: now) }
            }
        }
        router.post("buttons/:name/press") { request, context -> SDLJSON in
            let name = try context.parameters.decoded("name")
            let body = try await Self.body(request, optional: true, allowed: ["mode", "appID", "softButtonID", "customButtonID"])
            let mode = try Self.string(body, "mode") ?? "SHORT"
            let named = try ControlBody.appName(body, "appID")
            let button = try ControlBody.softButton(body)
            return try simulator.perform { unit, now in
                let app = try named.map { try resolveApp($0, in: unit) }
                let appID = app?.appID
                let softButtonID = try button.map { try names.softButtonNumber($0, gatewayApps: app?.gatewayApps) }
                let (notified, actions) = try Self.control {
                    try unit.pressButton(name, mode: mode, appID: appID, softButtonID: softButtonID, now: now)
                }
                return (["button": .string(name), "mode": .string(mode), "notified": .array(notified.map { .string($0) })], actions)
            }
        }
        router.get("driver-distraction") { _, _ -> SDLJSON in
            ["state": .string(simulator.snapshot.driverDistraction)]
        }
        router.put("driver-distraction") { request, _ -> SDLJSON in
            let body = try await Self.body(request, allowed: ["state"])
            guard let state = try Self.string(body, "state") else { throw HTTPProblem.invalidBody("state is required") }
            return try simulator.perform { unit, now in
                (["state": .string(state)], try Self.control { try unit.setDriverDistraction(state, now: now) })
            }
        }
        router.get("vehicle-data") { _, _ -> SDLJSON in
            .object(simulator.snapshot.vehicleData)
        }
        router.put("vehicle-data") { request, _ -> SDLJSON in
            let body = try await Self.body(request)
            guard case .object(let values) = body else { throw HTTPProblem.invalidBody("the body must be an object of vehicle data") }
            return try simulator.perform { unit, now in
                let actions = try Self.control { try unit.overrideVehicleData(values, now: now) }
                return (.object(unit.vehicleData), actions)
            }
        }
        router.get("log") { request, _ -> SDLJSON in
            let values = request.uri.queryParameters.getAll("limit")
            guard values.count <= 1, let limit = values.first.map({ Int($0) }) ?? 200, (0...10_000).contains(limit) else {
                throw HTTPProblem(
                    status: .badRequest, code: "invalid-query", title: "A query value is not valid",
                    detail: "limit must be one integer 0...10000")
            }
            let entries = simulator.snapshot.log.entries.suffix(limit)
            return .array(entries.map(\.json))
        }
        router.get("faults") { _, _ -> SDLJSON in
            .array(simulator.snapshot.faults.faults.map(\.json))
        }
        router.post("faults") { request, _ -> Response in
            let body = try await Self.body(
                request, allowed: ["function", "delayMs", "resultCode", "hang", "dropConnection", "malformedFrame", "burst"])
            let function = try Self.string(body, "function")
            if let delay = try Self.int(body, "delayMs"), !(0...Self.maximumFaultDelay).contains(delay) {
                throw HTTPProblem.invalidBody("delayMs must be 0...\(Self.maximumFaultDelay)")
            }
            var added: [SDLJSON] = []
            try simulator.perform { unit, now in
                var actions: [HeadUnitAction] = []
                if let burstValue = body["burst"] {
                    guard case .object(let burst) = burstValue, let name = burst["notification"]?.stringValue,
                        let count = burst["count"]?.intValue,
                        burst["appID"] == nil || burst["appID"]?.stringValue != nil,
                        burst["params"] == nil || burst["params"]?.objectValue != nil,
                        burst["ratePerSecond"] == nil || burst["ratePerSecond"]?.doubleValue != nil
                    else {
                        throw HTTPProblem.invalidBody(
                            "burst needs notification (string) and count (integer); appID is a string, params an object, ratePerSecond a number"
                        )
                    }
                    let appID = try burst["appID"]?.stringValue.map { try resolveApp($0, in: unit).appID }
                    actions = try Self.control {
                        try unit.burst(
                            name, parameters: burst["params"]?.objectValue ?? [:], count: Int(count),
                            ratePerSecond: burst["ratePerSecond"]?.doubleValue, appID: appID, now: now
                        )
                    }
                    added.append(["burst": .object(burst)])
                }
                let fault = Fault(
                    function: function,
                    delay: try Self.int(body, "delayMs").map { .milliseconds($0) },
                    resultCode: try Self.string(body, "resultCode"),
                    hang: try Self.bool(body, "hang") ?? false,
                    dropConnection: try Self.bool(body, "dropConnection") ?? false,
                    malformedFrame: try Self.bool(body, "malformedFrame") ?? false
                )
                if fault.delay != nil || fault.resultCode != nil || fault.hang || fault.dropConnection || fault.malformedFrame {
                    try Self.control { try unit.addFault(fault) }
                    added.append(fault.json)
                }
                return ((), actions)
            }
            guard !added.isEmpty else { throw HTTPProblem.invalidBody("the body names no fault") }
            return SDLJSON.array(added).httpResponse(status: .created)
        }
        router.get("feed") { _, _ -> SDLJSON in
            simulator.perform { unit, now in (unit.feedStatus(now: now), []) }
        }
        router.put("feed") { request, _ -> SDLJSON in
            let body = try await Self.body(request, allowed: ["playing", "restart"])
            let playing = try Self.bool(body, "playing")
            let restart = try Self.bool(body, "restart") ?? false
            return simulator.perform { unit, now in unit.setFeed(playing: playing, restart: restart, now: now) }
        }
        router.post("restart") { request, _ -> SDLJSON in
            let body = try await Self.body(request, optional: true, allowed: ["keepResumptionData"])
            let keep = try Self.bool(body, "keepResumptionData") ?? true
            return simulator.perform { unit, now in
                let (connected, actions) = unit.restart(keepingResumptionData: keep, now: now)
                return (["disconnected": .array(connected.map { .string($0) }), "keepResumptionData": .bool(keep)], actions)
            }
        }
        router.delete("faults") { _, _ -> Response in
            simulator.perform { unit, _ in (unit.clearFaults(), []) }
            return Response(status: .noContent)
        }
    }

    /// Runs a head unit control call, turning its ``SimulatorControlError`` into a problem.
    static func control<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SimulatorControlError {
            throw HTTPProblem(error)
        }
    }

    /// The JSON object body; with `allowed`, a member not in it is refused (a typo is never
    /// silently ignored).
    static func body(_ request: Request, optional: Bool = false, allowed: Set<String>? = nil) async throws -> SDLJSON {
        let body = try await body(request, optional: optional)
        if let allowed, let unknown = Set(body.objectValue?.keys ?? [:].keys).subtracting(allowed).sorted().first {
            throw HTTPProblem.invalidBody("unknown member \(unknown); expected \(allowed.sorted().joined(separator: ", "))")
        }
        return body
    }

    static func body(_ request: Request, optional: Bool) async throws -> SDLJSON {
        let buffer = try await request.body.collect(upTo: maximumBodySize)
        if buffer.readableBytes == 0 {
            if optional { return [:] }
            throw HTTPProblem.invalidBody("a JSON object is required")
        }
        guard JSONContentType.accepts(request.headers[.contentType]) else {
            throw HTTPProblem(
                status: .unsupportedMediaType, code: "unsupported-media-type", title: "Unsupported media type",
                detail: "send JSON bodies with Content-Type: application/json"
            )
        }
        do {
            let value = try SDLJSON.parse(buffer)
            guard case .object = value else { throw HTTPProblem.invalidBody("the body must be a JSON object") }
            return value
        } catch let error as SDLProtocolError {
            throw HTTPProblem.invalidBody(error.jsonBodyDetail(in: buffer.readableBytesView))
        }
    }

    static func int(_ body: SDLJSON, _ key: String) throws -> Int64? {
        guard let value = body[key] else { return nil }
        guard let number = value.intValue else { throw HTTPProblem.invalidBody("\(key) must be an integer") }
        return number
    }

    static func bool(_ body: SDLJSON, _ key: String) throws -> Bool? {
        guard let value = body[key] else { return nil }
        guard let flag = value.boolValue else { throw HTTPProblem.invalidBody("\(key) must be a boolean") }
        return flag
    }

    static func string(_ body: SDLJSON, _ key: String) throws -> String? {
        guard let value = body[key] else { return nil }
        guard case .string(let text) = value else { throw HTTPProblem.invalidBody("\(key) must be a string") }
        return text
    }
}
