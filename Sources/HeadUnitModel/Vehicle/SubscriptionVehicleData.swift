/// Vehicle data names and their `VehicleDataType` (MOBILE_API.xml 8.0.0, docs/protocol.md §h), as
/// SDL Core maps them in its Subscribe/UnsubscribeVehicleData responses.
public enum SubscriptionVehicleData {
    public static let dataTypes: [String: String] = [
        "gps": "VEHICLEDATA_GPS",
        "speed": "VEHICLEDATA_SPEED",
        "rpm": "VEHICLEDATA_RPM",
        "fuelLevel": "VEHICLEDATA_FUELLEVEL",
        "fuelLevel_State": "VEHICLEDATA_FUELLEVEL_STATE",
        "instantFuelConsumption": "VEHICLEDATA_FUELCONSUMPTION",
        "fuelRange": "VEHICLEDATA_FUELRANGE",
        "climateData": "VEHICLEDATA_CLIMATEDATA",
        "externalTemperature": "VEHICLEDATA_EXTERNTEMP",
        "turnSignal": "VEHICLEDATA_TURNSIGNAL",
        "vin": "VEHICLEDATA_VIN",
        "gearStatus": "VEHICLEDATA_GEARSTATUS",
        "prndl": "VEHICLEDATA_PRNDL",
        "tirePressure": "VEHICLEDATA_TIREPRESSURE",
        "odometer": "VEHICLEDATA_ODOMETER",
        "beltStatus": "VEHICLEDATA_BELTSTATUS",
        "bodyInformation": "VEHICLEDATA_BODYINFO",
        "deviceStatus": "VEHICLEDATA_DEVICESTATUS",
        "driverBraking": "VEHICLEDATA_BRAKING",
        "wiperStatus": "VEHICLEDATA_WIPERSTATUS",
        "headLampStatus": "VEHICLEDATA_HEADLAMPSTATUS",
        "engineTorque": "VEHICLEDATA_ENGINETORQUE",
        "accPedalPosition": "VEHICLEDATA_ACCPEDAL",
        "steeringWheelAngle": "VEHICLEDATA_STEERINGWHEEL",
        "engineOilLife": "VEHICLEDATA_ENGINEOILLIFE",
        "electronicParkBrakeStatus": "VEHICLEDATA_ELECTRONICPARKBRAKESTATUS",
        "cloudAppVehicleID": "VEHICLEDATA_CLOUDAPPVEHICLEID",
        "stabilityControlsStatus": "VEHICLEDATA_STABILITYCONTROLSSTATUS",
        "eCallInfo": "VEHICLEDATA_ECALLINFO",
        "airbagStatus": "VEHICLEDATA_AIRBAGSTATUS",
        "emergencyEvent": "VEHICLEDATA_EMERGENCYEVENT",
        "clusterModeStatus": "VEHICLEDATA_CLUSTERMODESTATUS",
        "myKey": "VEHICLEDATA_MYKEY",
        "windowStatus": "VEHICLEDATA_WINDOWSTATUS",
        "handsOffSteering": "VEHICLEDATA_HANDSOFFSTEERING",
        "seatOccupancy": "VEHICLEDATA_SEATOCCUPANCY",
    ]

    /// The response parameter that carries a name's result: the spec calls `clusterModeStatus`
    /// `clusterModes` in Subscribe/UnsubscribeVehicleData responses.
    public static func responseKey(_ name: String) -> String {
        name == "clusterModeStatus" ? "clusterModes" : name
    }

    /// ButtonName values only media apps may subscribe to (Core's `IsSubscriptionAllowed`).
    public static let mediaOnlyButtons: Set<String> = ["SEEKLEFT", "SEEKRIGHT", "TUNEUP", "TUNEDOWN"]
}
