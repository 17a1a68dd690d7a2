import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

@Suite("Simulator: subscriptions (buttons, vehicle data, GetVehicleData, resumption)")
struct SimulatorSubscriptionTests {
    static func result(_ name: String, _ code: String) -> SDLJSON {
        ["dataType": .string(SubscriptionVehicleData.dataTypes[name]!), "resultCode": .string(code)]
    }

    @Test("SubscribeButton: SUCCESS then OnHashChange; again IGNORED; media buttons need a media app; unknown buttons UNSUPPORTED_RESOURCE")
    func subscribeButton() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let hashesBefore = harness.notifications("OnHashChange", session: session, on: connection).count
        let ok = harness.request("SubscribeButton", ["buttonName": "OK"], session: session, on: connection)
        #expect(harness.response(ok, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == hashesBefore + 1)
        // The response comes before the OnHashChange.
        let order = (harness.received[connection] ?? []).compactMap { item -> String? in
            guard case .rpc(_, let rpc) = item else { return nil }
            return harness.catalog.functionName(forID: rpc.functionID)
        }
        #expect(Array(order.suffix(2)) == ["SubscribeButton", "OnHashChange"])
        #expect(harness.unit.apps[session]?.buttonSubscriptions == ["OK"])
        let again = harness.call("SubscribeButton", ["buttonName": "OK"], session: session, on: connection)
        #expect(again?.resultCode == "IGNORED")
        #expect(again?.success == false)
        #expect(harness.call("SubscribeButton", ["buttonName": "SEEKLEFT"], session: session, on: connection)?.resultCode == "REJECTED")
        let unsupported = harness.call("SubscribeButton", ["buttonName": "NAV_PAN_UP"], session: session, on: connection)
        #expect(unsupported?.resultCode == "UNSUPPORTED_RESOURCE")
        #expect(unsupported?.success == false)
        #expect(harness.call("UnsubscribeButton", ["buttonName": "OK"], session: session, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.call("UnsubscribeButton", ["buttonName": "OK"], session: session, on: connection)?.resultCode == "IGNORED")
        #expect(harness.unit.apps[session]?.buttonSubscriptions.isEmpty == true)
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == hashesBefore + 2)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("A media app may subscribe to SEEKLEFT")
    func mediaButtons() {
        var (harness, connection, session) = FileSuiteSupport.harness(isMedia: true)
        #expect(harness.call("SubscribeButton", ["buttonName": "SEEKLEFT"], session: session, on: connection)?.resultCode == "SUCCESS")
    }

    @Test("Every subscribable name maps to a VehicleDataType, and every response key is in the spec")
    func dataTypes() throws {
        let catalog = SDLCatalog.builtIn
        let types = try #require(catalog.enums["VehicleDataType"])
        let request = try #require(catalog.function(named: "SubscribeVehicleData", messageType: .request))
        let response = try #require(catalog.function(named: "SubscribeVehicleData", messageType: .response))
        for parameter in request.parameters {
            let type = try #require(SubscriptionVehicleData.dataTypes[parameter.name], "\(parameter.name)")
            #expect(types.contains(type), "\(parameter.name) → \(type)")
            #expect(response.parameter(named: SubscriptionVehicleData.responseKey(parameter.name)) != nil, "\(parameter.name)")
        }
        #expect(SubscriptionVehicleData.dataTypes["fuelLevel_State"] == "VEHICLEDATA_FUELLEVEL_STATE")
        #expect(SubscriptionVehicleData.dataTypes["externalTemperature"] == "VEHICLEDATA_EXTERNTEMP")
        #expect(Set(SubscriptionVehicleData.dataTypes.values).isSubset(of: Set(types.elementNames)))
    }

    @Test("SubscribeVehicleData: per-item results; IGNORED when none succeed (already subscribed, not available); WARNINGS for a mix")
    func subscribeVehicleData() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let first = harness.call("SubscribeVehicleData", ["speed": true, "rpm": true, "gps": false], session: session, on: connection)
        #expect(first?.resultCode == "SUCCESS")
        #expect(first?.parameters["speed"] == Self.result("speed", "SUCCESS"))
        #expect(first?.parameters["rpm"] == Self.result("rpm", "SUCCESS"))
        #expect(first?.parameters["gps"] == nil)
        #expect(harness.unit.apps[session]?.vehicleDataSubscriptions == ["speed", "rpm"])
        // docs/protocol.md §k: the same subscription again.
        let again = harness.call("SubscribeVehicleData", ["speed": true], session: session, on: connection)
        #expect(again?.resultCode == "IGNORED")
        #expect(again?.success == false)
        #expect(again?.parameters["speed"] == ["dataType": "VEHICLEDATA_SPEED", "resultCode": "DATA_ALREADY_SUBSCRIBED"])
        // deviceStatus is not provided by the generated drive.
        let mix = harness.call(
            "SubscribeVehicleData", ["speed": true, "fuelLevel_State": true, "deviceStatus": true], session: session, on: connection)
        #expect(mix?.resultCode == "WARNINGS")
        #expect(mix?.success == true)
        #expect(mix?.parameters["fuelLevel_State"] == ["dataType": "VEHICLEDATA_FUELLEVEL_STATE", "resultCode": "SUCCESS"])
        #expect(mix?.parameters["deviceStatus"] == Self.result("deviceStatus", "VEHICLE_DATA_NOT_AVAILABLE"))
        #expect(mix?.parameters["speed"] == Self.result("speed", "DATA_ALREADY_SUBSCRIBED"))
        let unavailable = harness.call("SubscribeVehicleData", ["deviceStatus": true], session: session, on: connection)
        #expect(unavailable?.resultCode == "IGNORED")
        #expect(unavailable?.parameters["deviceStatus"] == Self.result("deviceStatus", "VEHICLE_DATA_NOT_AVAILABLE"))
        let cluster = harness.call(
            "SubscribeVehicleData", ["clusterModeStatus": true, "externalTemperature": true], session: session, on: connection)
        #expect(cluster?.parameters["clusterModes"] == ["dataType": "VEHICLEDATA_CLUSTERMODESTATUS", "resultCode": "SUCCESS"])
        #expect(cluster?.parameters["externalTemperature"] == ["dataType": "VEHICLEDATA_EXTERNTEMP", "resultCode": "SUCCESS"])
        #expect(harness.call("SubscribeVehicleData", ["speed": false], session: session, on: connection)?.resultCode == "INVALID_DATA")
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("UnsubscribeVehicleData: SUCCESS, then IGNORED with DATA_NOT_SUBSCRIBED; a mix is WARNINGS; each change sends OnHashChange")
    func unsubscribeVehicleData() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let hashes = harness.notifications("OnHashChange", session: session, on: connection).count
        _ = harness.call("SubscribeVehicleData", ["speed": true, "rpm": true], session: session, on: connection)
        let off = harness.call("UnsubscribeVehicleData", ["speed": true], session: session, on: connection)
        #expect(off?.resultCode == "SUCCESS")
        #expect(off?.parameters["speed"] == Self.result("speed", "SUCCESS"))
        let again = harness.call("UnsubscribeVehicleData", ["speed": true], session: session, on: connection)
        #expect(again?.resultCode == "IGNORED")
        #expect(again?.parameters["speed"] == Self.result("speed", "DATA_NOT_SUBSCRIBED"))
        let mix = harness.call("UnsubscribeVehicleData", ["speed": true, "rpm": true], session: session, on: connection)
        #expect(mix?.resultCode == "WARNINGS")
        #expect(harness.unit.apps[session]?.vehicleDataSubscriptions.isEmpty == true)
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == hashes + 3)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("A subscribed app gets OnVehicleData at 10 Hz with only its names; after unsubscribing, none")
    func vehicleDataFlow() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        harness.advance(by: .seconds(20))  // the generated drive leaves PARK after 13.5 s
        _ = harness.call("SubscribeVehicleData", ["speed": true, "odometer": true, "gps": true], session: session, on: connection)
        let before = harness.notifications("OnVehicleData", session: session, on: connection).count
        harness.advance(by: .seconds(1))
        let received = harness.notifications("OnVehicleData", session: session, on: connection).dropFirst(before)
        #expect(received.count >= 9 && received.count <= 11, "\(received.count)")
        for notification in received {
            let names = Set(notification.parameters.objectValue?.keys.map { $0 } ?? [])
            #expect(!names.isEmpty && names.isSubset(of: ["speed", "odometer", "gps"]))
        }
        _ = harness.call("UnsubscribeVehicleData", ["speed": true, "odometer": true, "gps": true], session: session, on: connection)
        let after = harness.notifications("OnVehicleData", session: session, on: connection).count
        harness.advance(by: .seconds(1))
        #expect(harness.notifications("OnVehicleData", session: session, on: connection).count == after)
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    @Test("GetVehicleData returns the vehicle's values; none available is VEHICLE_DATA_NOT_AVAILABLE; six in a second REJECTED")
    func getVehicleData() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let values = harness.call("GetVehicleData", ["speed": true, "vin": true, "deviceStatus": true], session: session, on: connection)
        #expect(values?.resultCode == "SUCCESS")
        #expect(values?.parameters["speed"] == harness.unit.vehicleData["speed"])
        #expect(values?.parameters["vin"] == harness.unit.vehicleData["vin"])
        #expect(values?.parameters["deviceStatus"] == nil)
        #expect(
            harness.call("GetVehicleData", ["deviceStatus": true], session: session, on: connection)?.resultCode
                == "VEHICLE_DATA_NOT_AVAILABLE")
        harness.advance(by: .seconds(2))
        var codes: [String] = []
        for _ in 0..<6 { codes.append(harness.call("GetVehicleData", ["rpm": true], session: session, on: connection)?.resultCode ?? "-") }
        #expect(codes == ["SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS", "REJECTED"])
        #expect(FileSuiteSupport.specProblems(harness, on: connection).isEmpty)
    }

    /// Registers again on a new connection with `hashID`.
    static func reconnect(_ harness: inout HeadUnitHarness, hashID: String) -> (ConnectionID, UInt8, SDLRPCMessage) {
        let connection = harness.open()
        let (session, response) = harness.register(on: connection, extra: ["hashID": .string(hashID)])
        return (connection, session, response)
    }

    @Test("Resumption: the latest OnHashChange restores the subscriptions (IGNORED, DATA_ALREADY_SUBSCRIBED) and data flows")
    func resumption() throws {
        var (harness, connection, session) = FileSuiteSupport.harness()
        #expect(harness.call("SubscribeVehicleData", ["speed": true], session: session, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.call("SubscribeButton", ["buttonName": "OK"], session: session, on: connection)?.resultCode == "SUCCESS")
        let latest = try #require(
            harness.notifications("OnHashChange", session: session, on: connection).last?.parameters["hashID"]?.stringValue)
        harness.closeConnection(connection)
        let (second, resumed, response) = Self.reconnect(&harness, hashID: latest)
        #expect(response.resultCode == "SUCCESS")
        #expect(response.parameters["info"] == "Data resumption successful")
        // Core gives the level back after ApplicationResumingTimeout (3000 ms), not before.
        harness.advance(by: .milliseconds(2900))
        #expect(harness.unit.apps[resumed]?.hmiLevel == "NONE")
        harness.advance(by: .milliseconds(200))
        #expect(harness.unit.apps[resumed]?.hmiLevel == "FULL")
        harness.advance(by: .seconds(20))  // the generated drive leaves PARK after 13.5 s
        let again = harness.call("SubscribeVehicleData", ["speed": true], session: resumed, on: second)
        #expect(again?.resultCode == "IGNORED")
        #expect(again?.parameters["speed"] == ["dataType": "VEHICLEDATA_SPEED", "resultCode": "DATA_ALREADY_SUBSCRIBED"])
        #expect(harness.call("SubscribeButton", ["buttonName": "OK"], session: resumed, on: second)?.resultCode == "IGNORED")
        #expect(!harness.notifications("OnVehicleData", session: resumed, on: second).isEmpty)
        #expect(FileSuiteSupport.specProblems(harness, on: second).isEmpty)
    }

    @Test("Resumption with an older hash is RESUME_FAILED: registered, subscriptions gone")
    func staleHash() throws {
        var (harness, connection, session) = FileSuiteSupport.harness()
        _ = harness.call("SubscribeVehicleData", ["speed": true], session: session, on: connection)
        let older = try #require(
            harness.notifications("OnHashChange", session: session, on: connection).last?.parameters["hashID"]?.stringValue)
        _ = harness.call("SubscribeVehicleData", ["rpm": true], session: session, on: connection)
        harness.closeConnection(connection)
        let (second, resumed, response) = Self.reconnect(&harness, hashID: older)
        #expect(response.resultCode == "RESUME_FAILED")
        #expect(response.success == true)
        #expect(harness.unit.apps[resumed]?.vehicleDataSubscriptions.isEmpty == true)
        #expect(harness.call("SubscribeVehicleData", ["speed": true], session: resumed, on: second)?.resultCode == "SUCCESS")
        #expect(FileSuiteSupport.specProblems(harness, on: second).isEmpty)
    }
}
