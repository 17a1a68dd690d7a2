import Foundation
import HeadUnitModel
import SDLProtocol
import SDLSpec

/// Files the vehicle tests read: the shipped `Traces/demo-drive.json`, and the OpenXC traces in
/// `../shared/traces/openxc/` next to the package root, which are not part of the repository
/// (tests that need them are skipped when they are absent).
enum VehicleFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // HeadUnitModelTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root

    static let demoDrive = packageRoot.appendingPathComponent("Traces/demo-drive.json")

    static let openXCFolder = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/traces/openxc")

    static let sharedTraceNames = ["trace-shorter.json", "trace.json", "evented.json"]

    static var sharedTracesAvailable: Bool {
        sharedTraceNames.allSatisfy { FileManager.default.fileExists(atPath: openXCFolder.appendingPathComponent($0).path) }
    }

    /// The OnVehicleData validation issues of `values` (empty when every value has SDL's types,
    /// mandatory members, enums and ranges).
    static func issues(_ values: [String: SDLJSON]) throws -> [SDLValidationIssue] {
        try SDLCatalog.builtIn.validate(.object(values), function: "OnVehicleData", messageType: .notification)
    }

    static func issues(_ snapshot: VehicleDataSnapshot) throws -> [SDLValidationIssue] {
        try issues(snapshot.values)
    }

    static func trace(_ lines: String...) throws -> OpenXCTrace {
        try OpenXCTrace(text: lines.joined(separator: "\n"))
    }

    /// Distance in metres between two GPSData values (haversine).
    static func metres(_ a: SDLJSON, _ b: SDLJSON) -> Double {
        let lat1 = (a["latitudeDegrees"]?.doubleValue ?? 0) * .pi / 180
        let lat2 = (b["latitudeDegrees"]?.doubleValue ?? 0) * .pi / 180
        let dLat = lat2 - lat1
        let dLon = ((b["longitudeDegrees"]?.doubleValue ?? 0) - (a["longitudeDegrees"]?.doubleValue ?? 0)) * .pi / 180
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(h)))
    }
}

extension Array where Element == SimulatedVehicleEvent {
    /// The vehicle data of all `.vehicleData` events, later values winning.
    var mergedVehicleData: [String: SDLJSON] {
        var merged: [String: SDLJSON] = [:]
        for case .vehicleData(let values) in self { merged.merge(values) { _, new in new } }
        return merged
    }

    var buttons: [SimulatedVehicleEvent] {
        filter { if case .vehicleData = $0 { return false } else { return true } }
    }
}
