import Hummingbird
import HeadUnitSimulator
import NIOCore
import SDLProtocol

/// The simulator's control API: JSON over HTTP, served on `simulate --control` and mounted at
/// `/v1/simulator` by `serve --simulate`. Every path is in `openapi.yaml`.
public struct SimulatorControlRoutes: Sendable {
    /// Control bodies are small: an HMI change, a button, vehicle data, a fault.
    public static let maximumBodySize = 64 * 1024

    let simulator: SimulatedHeadUnit

    public init(simulator: SimulatedHeadUnit) {
        self.simulator = simulator
    }

    /// Every operation, as `(method, path)` relative to where the routes are mounted; tests check
    /// it against the routes and `openapi.yaml`.
    public static let operations: [(method: String, path: String)] = [
        ("GET", "apps"), ("GET", "apps/:appID"), ("PUT", "apps/:appID/hmi"), ("GET", "apps/:appID/screen"),
        ("POST", "apps/:appID/commands/:cmdID"), ("POST", "apps/:appID/interaction"), ("POST", "buttons/:name/press"),
        ("GET", "driver-distraction"), ("PUT", "driver-distraction"), ("GET", "vehicle-data"), ("PUT", "vehicle-data"),
        ("GET", "log"), ("GET", "faults"), ("POST", "faults"), ("DELETE", "faults"),
    ]

    /// Adds the routes to `router` (a router or a group such as `router.group("v1/simulator")`).
    public func add<Context: RequestContext>(to router: some RouterMethods<Context>) {
        router.get("apps") { _, _ -> SDLJSON in
            .array(simulator.snapshot.appList.map(\.json))
        }
        router.get("apps/:appID") { _, context -> SDLJSON in
            let appID = try context.parameters.require("appID")
            return try simulator.perform { unit, _ in (try Self.control { try unit.requireApp(appID).json }, []) }
        }
        router.put("apps/:appID/hmi") { request, context -> SDLJSON in
            let appID = try context.parameters.require("appID")
            let body = try await Self.body(request)
            let level = try Self.string(body, "hmiLevel")
            let audio = try Self.string(body, "audioStreamingState")
            let systemContext = try Self.string(body, "systemContext")
            return try simulator.perform { unit, now in
                let actions = try Self.control { try unit.setHMI(appID: appID, hmiLevel: level, audioStreamingState: audio, systemContext: systemContext, now: now) }
                return (try Self.control { try unit.requireApp(appID).json }, actions)
            }
        }
        router.get("apps/:appID/screen") { _, context -> SDLJSON in
            let appID = try context.parameters.require("appID")
            return try simulator.perform { unit, _ in (try Self.control { try unit.requireApp(appID).screen.json }, []) }
        }
        router.post("apps/:appID/commands/:cmdID") { request, context -> SDLJSON in
            let appID = try context.parameters.require("appID")
            guard let commandID = Int64(try context.parameters.require("cmdID")) else {
                throw ControlProblem.invalidBody("cmdID must be an integer")
            }
            let body = try await Self.body(request, optional: true)
            let source = try Self.string(body, "triggerSource") ?? "MENU"
            return try simulator.perform { unit, now in
                let actions = try Self.control { try unit.triggerCommand(appID: appID, commandID: commandID, triggerSource: source, now: now) }
                return (["appID": .string(appID), "cmdID": .int(commandID), "triggerSource": .string(source)], actions)
            }
        }
        router.post("apps/:appID/interaction") { request, context -> SDLJSON in
            let appID = try context.parameters.require("appID")
            let body = try await Self.body(request)
            let answer = InteractionAnswer(
                choiceID: body["choiceID"]?.intValue,
                sliderPosition: body["sliderPosition"]?.intValue,
                resultCode: try Self.string(body, "result"),
                triggerSource: try Self.string(body, "triggerSource")
            )
            return try simulator.perform { unit, now in
                try Self.control { try unit.answerInteraction(appID: appID, answer, now: now) }
            }
        }
        router.post("buttons/:name/press") { request, context -> SDLJSON in
            let name = try context.parameters.require("name")
            let body = try await Self.body(request, optional: true)
            let mode = try Self.string(body, "mode") ?? "SHORT"
            let appID = try Self.string(body, "appID")
            let softButtonID = body["softButtonID"]?.intValue
            return try simulator.perform { unit, now in
                let (notified, actions) = try Self.control { try unit.pressButton(name, mode: mode, appID: appID, softButtonID: softButtonID, now: now) }
                return (["button": .string(name), "mode": .string(mode), "notified": .array(notified.map { .string($0) })], actions)
            }
        }
        router.get("driver-distraction") { _, _ -> SDLJSON in
            ["state": .string(simulator.snapshot.driverDistraction)]
        }
        router.put("driver-distraction") { request, _ -> SDLJSON in
            let body = try await Self.body(request)
            guard let state = try Self.string(body, "state") else { throw ControlProblem.invalidBody("state is required") }
            return try simulator.perform { unit, now in
                (["state": .string(state)], try Self.control { try unit.setDriverDistraction(state, now: now) })
            }
        }
        router.get("vehicle-data") { _, _ -> SDLJSON in
            .object(simulator.snapshot.vehicleData)
        }
        router.put("vehicle-data") { request, _ -> SDLJSON in
            let body = try await Self.body(request)
            guard case .object(let values) = body else { throw ControlProblem.invalidBody("the body must be an object of vehicle data") }
            return try simulator.perform { unit, now in
                let actions = try Self.control { try unit.overrideVehicleData(values, now: now) }
                return (.object(unit.vehicleData), actions)
            }
        }
        router.get("log") { request, _ -> SDLJSON in
            let values = request.uri.queryParameters.getAll("limit")
            guard values.count <= 1, let limit = values.first.map({ Int($0) }) ?? 200, (0...10_000).contains(limit) else {
                throw ControlProblem(status: .badRequest, code: "invalid-query", title: "A query value is not valid", detail: "limit must be one integer 0...10000")
            }
            let entries = simulator.snapshot.log.entries.suffix(limit)
            return .array(entries.map(\.json))
        }
        router.get("faults") { _, _ -> SDLJSON in
            .array(simulator.snapshot.faults.faults.map(\.json))
        }
        router.post("faults") { request, _ -> Response in
            let body = try await Self.body(request)
            let function = try Self.string(body, "function")
            var added: [SDLJSON] = []
            try simulator.perform { unit, now in
                var actions: [HeadUnitAction] = []
                if case .object(let burst)? = body["burst"] {
                    guard let name = burst["notification"]?.stringValue, let count = burst["count"]?.intValue else {
                        throw ControlProblem.invalidBody("burst needs notification and count")
                    }
                    actions = try Self.control {
                        try unit.burst(
                            name, parameters: burst["params"]?.objectValue ?? [:], count: Int(count),
                            ratePerSecond: burst["ratePerSecond"]?.doubleValue, appID: burst["appID"]?.stringValue, now: now
                        )
                    }
                    added.append(["burst": .object(burst)])
                }
                let fault = Fault(
                    function: function,
                    delay: body["delayMs"]?.intValue.map { .milliseconds($0) },
                    resultCode: try Self.string(body, "resultCode"),
                    hang: body["hang"]?.boolValue ?? false,
                    dropConnection: body["dropConnection"]?.boolValue ?? false,
                    malformedFrame: body["malformedFrame"]?.boolValue ?? false
                )
                if fault.delay != nil || fault.resultCode != nil || fault.hang || fault.dropConnection || fault.malformedFrame {
                    try Self.control { try unit.addFault(fault) }
                    added.append(fault.json)
                }
                return ((), actions)
            }
            guard !added.isEmpty else { throw ControlProblem.invalidBody("the body names no fault") }
            return SDLJSON.array(added).httpResponse(status: .created)
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
            throw ControlProblem(error)
        }
    }

    static func body(_ request: Request, optional: Bool = false) async throws -> SDLJSON {
        let buffer = try await request.body.collect(upTo: maximumBodySize)
        if buffer.readableBytes == 0 {
            if optional { return [:] }
            throw ControlProblem.invalidBody("a JSON object is required")
        }
        do {
            let value = try SDLJSON.parse(buffer)
            guard case .object = value else { throw ControlProblem.invalidBody("the body must be a JSON object") }
            return value
        } catch let error as SDLProtocolError {
            throw ControlProblem.invalidBody("\(error)")
        }
    }

    static func string(_ body: SDLJSON, _ key: String) throws -> String? {
        guard let value = body[key] else { return nil }
        guard case .string(let text) = value else { throw ControlProblem.invalidBody("\(key) must be a string") }
        return text
    }
}
