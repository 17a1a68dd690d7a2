import HTTPAPISupport
import Hummingbird
import SDLClient
import SDLProtocol

/// `POST /v1/apps/{id}/rpc/{function}`, `POST /v1/apps/{id}/batch`, vehicle data and
/// subscriptions (docs/architecture.md, HTTP API): each a request RPC on the app's session through
/// ``RPCExecutor``.
struct RPCRoutes: Sendable {
    let executor: RPCExecutor
    let limits: GatewayLimits

    /// At most this many requests in one batch.
    static let maximumBatchSize = 100

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/apps/:id/rpc/:function") { request, context -> Response in
            let started = ContinuousClock.now
            let id = try context.parameters.decoded("id")
            let function = try context.parameters.decoded("function")
            let parameters = try await HTTPBody.json(request, limit: limits.bodySize)
            let options = SDLRequestOptions(
                timeout: try Query.int(request, "timeout", in: 1...RPCExecutor.maximumTimeout).map { .milliseconds($0) },
                validate: try Query.bool(request, "validate", default: true),
                checkPermissions: try Query.bool(request, "checkPermissions", default: true)
            )
            let outcome = try await executor.send(app: id, function: function, parameters: parameters, options: options)
            return HTTPBody.rpcResponse(outcome, started: started)
        }
        router.post("v1/apps/:id/batch") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let body = try await HTTPBody.object(request, limit: limits.bodySize, optional: false)
            let batch = try Batch(body)
            _ = try executor.apps.session(id)
            return HTTPBody.response(["results": .array(await run(batch, app: id))])
        }
        router.get("v1/apps/:id/vehicle-data") { request, context -> Response in
            let started = ContinuousClock.now
            let id = try context.parameters.decoded("id")
            return try await send(id, "GetVehicleData", Self.flags(try Self.names(request)), started: started)
        }
        router.put("v1/apps/:id/subscriptions/vehicle-data") { request, context -> Response in
            let started = ContinuousClock.now
            let id = try context.parameters.decoded("id")
            let body = try await HTTPBody.object(request, limit: limits.bodySize, optional: false)
            guard let array = body["names"]?.arrayValue, !array.isEmpty, array.allSatisfy({ $0.stringValue != nil }) else {
                throw GatewayError(.invalidBody, "names must be a non-empty array of vehicle data names")
            }
            let names = array.compactMap(\.stringValue)
            return try await subscription("SubscribeVehicleData", id, request, started: started) { session, owner in
                try await session.subscribe(vehicleData: names, owner: owner)
            }
        }
        router.delete("v1/apps/:id/subscriptions/vehicle-data") { request, context -> Response in
            let started = ContinuousClock.now
            let names = try Self.names(request)
            return try await subscription("UnsubscribeVehicleData", try context.parameters.decoded("id"), request, started: started) {
                session, owner in
                try await session.unsubscribe(vehicleData: names, owner: owner)
            }
        }
        router.put("v1/apps/:id/subscriptions/buttons/:button") { request, context -> Response in
            let started = ContinuousClock.now
            let button = try context.parameters.decoded("button")
            return try await subscription("SubscribeButton", try context.parameters.decoded("id"), request, started: started) {
                session, owner in
                try await session.subscribe(button: button, owner: owner)
            }
        }
        router.delete("v1/apps/:id/subscriptions/buttons/:button") { request, context -> Response in
            let started = ContinuousClock.now
            let button = try context.parameters.decoded("button")
            return try await subscription("UnsubscribeButton", try context.parameters.decoded("id"), request, started: started) {
                session, owner in
                try await session.unsubscribe(button: button, owner: owner)
            }
        }
    }

    /// The subscription routes hold names for an owner (`?owner=`, default `http`): the SDL
    /// request goes only for the first owner of a name and when its last owner leaves; when none
    /// was needed the answer says so with `sent: []` (``SDLAppSession/SubscriptionOutcome``).
    private func subscription(
        _ function: String, _ id: String, _ request: Request, started: ContinuousClock.Instant,
        _ change: (SDLAppSession, String) async throws -> SDLAppSession.SubscriptionOutcome
    ) async throws -> Response {
        let owner = request.uri.queryParameters.get("owner") ?? "http"
        guard (1...64).contains(owner.unicodeScalars.count) else { throw GatewayError(.invalidQuery, "owner must have 1...64 characters") }
        let session = try executor.apps.session(id)
        let outcome: SDLAppSession.SubscriptionOutcome
        do {
            outcome = try await change(session, owner)
        } catch {
            throw GatewayError.from(error)
        }
        guard let message = outcome.response else {
            return HTTPBody.response([
                "success": true, "resultCode": "SUCCESS", "owner": .string(owner), "sent": [],
                "info": "no request was needed: other owners hold these names, or this owner already did",
            ])
        }
        var response = message.parameters
        let resultCode = response["resultCode"]?.stringValue
        guard response["success"]?.boolValue == true || resultCode == "IGNORED" else {
            throw GatewayError.headUnit(function, response: response)
        }
        if var members = response.objectValue {
            members["owner"] = .string(owner)
            members["sent"] = .array(outcome.sent.map(SDLJSON.string))
            response = .object(members)
        }
        let outcomeTiming = RPCExecutor.Outcome(
            response: response, correlationID: message.correlationID, headUnitTime: ContinuousClock.now - started)
        return HTTPBody.rpcResponse(outcomeTiming, started: started)
    }

    private func send(_ id: String, _ function: String, _ parameters: SDLJSON, started: ContinuousClock.Instant) async throws -> Response {
        let outcome = try await executor.send(app: id, function: function, parameters: parameters)
        return HTTPBody.rpcResponse(outcome, started: started)
    }

    /// The required `names` query of the vehicle data routes.
    static func names(_ request: Request) throws(GatewayError) -> [String] {
        guard let names = try Query.list(request, "names") else {
            throw GatewayError(.invalidQuery, "names is required, e.g. names=speed,rpm")
        }
        return names
    }

    /// `{"speed": true, "rpm": true}` for vehicle data requests.
    static func flags(_ names: [String]) -> SDLJSON {
        .object(Dictionary(names.map { ($0, SDLJSON.bool(true)) }, uniquingKeysWith: { first, _ in first }))
    }

    // MARK: Batch

    struct Batch: Sendable {
        struct Item: Sendable {
            var function: String
            var parameters: SDLJSON
            var timeoutMs: Int64?
        }

        var concurrent: Bool
        var stopOnError: Bool
        var items: [Item]

        init(_ body: [String: SDLJSON]) throws(GatewayError) {
            if let mode = body["mode"], mode.stringValue == nil {
                throw GatewayError(.invalidBody, "mode must be sequential or concurrent")
            }
            switch body["mode"]?.stringValue ?? "sequential" {
            case "sequential": concurrent = false
            case "concurrent": concurrent = true
            default: throw GatewayError(.invalidBody, "mode must be sequential or concurrent")
            }
            if let stop = body["stopOnError"], stop.boolValue == nil { throw GatewayError(.invalidBody, "stopOnError must be a boolean") }
            stopOnError = body["stopOnError"]?.boolValue ?? true
            guard let requests = body["requests"]?.arrayValue, (1...RPCRoutes.maximumBatchSize).contains(requests.count) else {
                throw GatewayError(.invalidBody, "requests must be an array of 1...\(RPCRoutes.maximumBatchSize) items")
            }
            items = try requests.enumerated().map { index, item throws(GatewayError) in
                guard let function = item["function"]?.stringValue else {
                    throw GatewayError(.invalidBody, "requests[\(index)].function must be a string")
                }
                let timeout = item["timeout"]
                guard timeout == nil || timeout?.intValue.map({ (1...RPCExecutor.maximumTimeout).contains($0) }) == true else {
                    throw GatewayError(.invalidBody, "requests[\(index)].timeout must be an integer 1...\(RPCExecutor.maximumTimeout) (ms)")
                }
                guard item["params"] == nil || item["params"]?.objectValue != nil else {
                    throw GatewayError(.invalidBody, "requests[\(index)].params must be an object")
                }
                return Item(function: function, parameters: item["params"] ?? [:], timeoutMs: timeout?.intValue)
            }
        }
    }

    /// One result per item, in order: `{function, status, response | problem | skipped}`.
    func run(_ batch: Batch, app id: String) async -> [SDLJSON] {
        if batch.concurrent {
            return await withTaskGroup(of: (Int, SDLJSON).self) { group in
                for (index, item) in batch.items.enumerated() {
                    group.addTask { (index, await result(item, app: id).json) }
                }
                var results = [SDLJSON](repeating: .null, count: batch.items.count)
                for await (index, result) in group { results[index] = result }
                return results
            }
        }
        var results: [SDLJSON] = []
        var failed = false
        for item in batch.items {
            if failed && batch.stopOnError {
                results.append(["function": .string(item.function), "status": 424, "skipped": true])
                continue
            }
            let result = await result(item, app: id)
            failed = failed || !result.succeeded
            results.append(result.json)
        }
        return results
    }

    private func result(_ item: Batch.Item, app id: String) async -> (json: SDLJSON, succeeded: Bool) {
        do {
            let options = SDLRequestOptions(timeout: item.timeoutMs.map { .milliseconds($0) })
            let outcome = try await executor.send(app: id, function: item.function, parameters: item.parameters, options: options)
            return (["function": .string(item.function), "status": 200, "response": outcome.response], true)
        } catch {
            return (["function": .string(item.function), "status": .int(Int64(error.status.code)), "problem": error.problem], false)
        }
    }
}
