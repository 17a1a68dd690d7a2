import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// SubscribeButton, UnsubscribeButton, Subscribe/UnsubscribeVehicleData, GetVehicleData, as SDL
/// Core 8.2 answers them (docs/protocol.md §h, §k). Subscriptions are resumable data: each change
/// sends OnHashChange after the response.
extension HeadUnit {
    static let subscriptionHandlers: [String: RequestHandler] = [
        "SubscribeButton": { $0.subscribeButton($1) },
        "UnsubscribeButton": { $0.unsubscribeButton($1) },
        "SubscribeVehicleData": { $0.changeVehicleDataSubscriptions($1, subscribe: true) },
        "UnsubscribeVehicleData": { $0.changeVehicleDataSubscriptions($1, subscribe: false) },
        "GetVehicleData": { $0.getVehicleData($1) },
    ]

    /// Answers now with `success: false` whatever the code (Core's SubscribeButton says
    /// UNSUPPORTED_RESOURCE with `success: false`, unlike ``respond``'s table).
    mutating func respondFailure(_ request: Request, _ code: String, info: String) -> Reply {
        let params: [String: SDLJSON] = ["success": false, "resultCode": .string(code), "info": .string(info)]
        send(
            SDLRPCMessage(
                rpcType: .response, functionID: request.functionID, correlationID: request.correlationID, parameters: .object(params)),
            to: request.sessionID, now: request.now
        )
        return .later
    }

    /// Answers now; OnHashChange follows the response (Core updates the hash after it: the
    /// handlers note the change with ``changeApp(_:resumable:_:)``).
    mutating func respondNow(_ request: Request, _ code: String, info: String? = nil, parameters: [String: SDLJSON] = [:]) -> Reply {
        respond(
            to: request.sessionID, functionID: request.functionID, correlationID: request.correlationID,
            resultCode: code, info: info, parameters: parameters, now: request.now
        )
        return .later
    }

    /// Core's checks in order: a media button for a non-media app (REJECTED), a button the HMI's
    /// capabilities lack (UNSUPPORTED_RESOURCE), already subscribed (IGNORED).
    mutating func subscribeButton(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { unit, app in
            let name = request.parameters["buttonName"]?.stringValue ?? ""
            if !app.isMediaApplication && SubscriptionVehicleData.mediaOnlyButtons.contains(name) {
                return .refused(.result("REJECTED", info: "Subscribing to \(name) is allowed for media apps only"))
            }
            let available =
                unit.configuration.profile.document["buttonCapabilities"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            if !available.contains(name) {
                return .refused(unit.respondFailure(request, "UNSUPPORTED_RESOURCE", info: "The head unit has no \(name) button"))
            }
            if app.buttonSubscriptions.contains(name) {
                return .refused(.result("IGNORED", info: "Already subscribed to \(name)"))
            }
            app.buttonSubscriptions.insert(name)
            return .done { $0.respondNow(request, "SUCCESS") }
        }
    }

    mutating func unsubscribeButton(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            let name = request.parameters["buttonName"]?.stringValue ?? ""
            guard app.buttonSubscriptions.remove(name) != nil else {
                return .refused(.result("IGNORED", info: "Not subscribed to \(name)"))
            }
            return .done { $0.respondNow(request, "SUCCESS") }
        }
    }

    /// The vehicle data names a request sets to `true`, among the function's own parameters.
    func requestedVehicleData(_ request: Request) -> [String] {
        let known = catalog.function(named: request.function, messageType: .request)?.parameters.map(\.name) ?? []
        return known.filter { request.parameters[$0]?.boolValue == true }
    }

    /// Per-name results `{dataType, resultCode}` (SUCCESS, DATA_ALREADY_SUBSCRIBED,
    /// DATA_NOT_SUBSCRIBED, VEHICLE_DATA_NOT_AVAILABLE); overall SUCCESS when all succeed, WARNINGS
    /// for a mix, IGNORED when none did, e.g. all already subscribed (docs/protocol.md §k).
    mutating func changeVehicleDataSubscriptions(_ request: Request, subscribe: Bool) -> Reply {
        changeApp(request, resumable: true) { unit, app in
            let names = unit.requestedVehicleData(request)
            guard !names.isEmpty else { return .refused(.result("INVALID_DATA", info: "No data in the request")) }
            let available = unit.vehicleData
            var results: [String: SDLJSON] = [:]
            var succeeded = 0
            var unchanged = 0
            for name in names {
                let code: String
                if subscribe {
                    if app.vehicleDataSubscriptions.contains(name) {
                        code = "DATA_ALREADY_SUBSCRIBED"
                        unchanged += 1
                    } else if available[name] == nil {
                        code = "VEHICLE_DATA_NOT_AVAILABLE"
                    } else {
                        app.vehicleDataSubscriptions.insert(name)
                        code = "SUCCESS"
                        succeeded += 1
                    }
                } else if app.vehicleDataSubscriptions.remove(name) != nil {
                    code = "SUCCESS"
                    succeeded += 1
                } else {
                    code = "DATA_NOT_SUBSCRIBED"
                    unchanged += 1
                }
                results[SubscriptionVehicleData.responseKey(name)] = [
                    "dataType": .string(SubscriptionVehicleData.dataTypes[name] ?? "VEHICLEDATA_OEM_CUSTOM_DATA"),
                    "resultCode": .string(code),
                ]
            }
            guard succeeded > 0 else {
                // The spec's SubscribeVehicleData response has no VEHICLE_DATA_NOT_AVAILABLE result:
                // the per-item results say why nothing changed.
                let info: String
                if unchanged == names.count {
                    info = subscribe ? "Already subscribed on provided VehicleData" : "Was not subscribed on any VehicleData"
                } else {
                    info = "None of the requested data could be subscribed"
                }
                return .refused(.result("IGNORED", info: info, parameters: results))
            }
            let answered = results
            if succeeded == names.count {
                return .done { $0.respondNow(request, "SUCCESS", parameters: answered) }
            }
            let info = "Some of the requested data could not be \(subscribe ? "subscribed" : "unsubscribed")"
            return .done { $0.respondNow(request, "WARNINGS", info: info, parameters: answered) }
        }
    }

    /// The requested values the vehicle has; VEHICLE_DATA_NOT_AVAILABLE when it has none.
    mutating func getVehicleData(_ request: Request) -> Reply {
        let names = requestedVehicleData(request)
        guard !names.isEmpty else { return .result("INVALID_DATA", info: "No data in the request") }
        let available = vehicleData
        var values: [String: SDLJSON] = [:]
        for name in names {
            values[name] = available[name]
        }
        guard !values.isEmpty else {
            return .result("VEHICLE_DATA_NOT_AVAILABLE", info: "The vehicle has none of the requested data")
        }
        let missing = names.filter { values[$0] == nil }
        return .success(values, info: missing.isEmpty ? nil : "Not available: \(missing.joined(separator: ", "))")
    }
}
