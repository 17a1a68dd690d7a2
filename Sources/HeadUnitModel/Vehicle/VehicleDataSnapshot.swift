import SDLProtocol

/// The vehicle data of the simulated car at one moment, keyed by the SDL parameter names of
/// GetVehicleData and OnVehicleData (`speed`, `rpm`, `gps` …), each value already in SDL's JSON
/// form (MOBILE_API.xml 8.0.0 types, mandatory struct members, enum names and ranges).
///
/// Names the car does not have are absent; a GetVehicleData for them answers
/// VEHICLE_DATA_NOT_AVAILABLE.
public struct VehicleDataSnapshot: Sendable, Hashable {
    /// The values by SDL name.
    public var values: [String: SDLJSON]

    public init(_ values: [String: SDLJSON] = [:]) {
        self.values = values
    }

    /// The value of SDL vehicle data `name`, or `nil` when the car does not provide it.
    public subscript(name: String) -> SDLJSON? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The values of those of `names` the car provides (the others are left out).
    public func values(for names: [String]) -> [String: SDLJSON] {
        var result: [String: SDLJSON] = [:]
        for name in names {
            if let value = values[name] { result[name] = value }
        }
        return result
    }

    /// The SDL names this snapshot holds, sorted.
    public var names: [String] { values.keys.sorted() }

    /// The snapshot as the parameters object of an OnVehicleData notification.
    public var parameters: SDLJSON { .object(values) }

    /// Sets every value of `changes` and returns those that differ from what was there.
    @discardableResult
    public mutating func merge(_ changes: [String: SDLJSON]) -> [String: SDLJSON] {
        var changed: [String: SDLJSON] = [:]
        for (name, value) in changes where values[name] != value {
            values[name] = value
            changed[name] = value
        }
        return changed
    }

    /// The names of the car's current data where `self` and `other` differ (present in one only,
    /// or different values), with the value of `self`; names only `other` has are left out.
    public func changes(since other: VehicleDataSnapshot) -> [String: SDLJSON] {
        values.filter { other.values[$0.key] != $0.value }
    }

    /// The 36 vehicle data names of GetVehicleData and OnVehicleData (MOBILE_API.xml 8.0.0), in
    /// the order of the spec. `vin` is the one SubscribeVehicleData does not take.
    public static let allNames: [String] = [
        "gps", "speed", "rpm", "fuelLevel", "fuelLevel_State", "instantFuelConsumption", "fuelRange",
        "climateData", "externalTemperature", "turnSignal", "vin", "gearStatus", "prndl", "tirePressure",
        "odometer", "beltStatus", "bodyInformation", "deviceStatus", "driverBraking", "wiperStatus",
        "headLampStatus", "engineTorque", "accPedalPosition", "steeringWheelAngle", "engineOilLife",
        "electronicParkBrakeStatus", "cloudAppVehicleID", "stabilityControlsStatus", "eCallInfo",
        "airbagStatus", "emergencyEvent", "clusterModeStatus", "myKey", "windowStatus",
        "handsOffSteering", "seatOccupancy",
    ]
}
