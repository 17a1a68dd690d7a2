import SDLProtocol

/// Builders for the SDL JSON form of vehicle data structs (MOBILE_API.xml 8.0.0), with every
/// mandatory member present and numbers clamped to the spec's ranges.
public enum VehicleDataValue {
    /// `x` limited to `range`; NaN becomes the lower bound.
    public static func clamp(_ x: Double, _ range: ClosedRange<Double>) -> Double {
        guard !x.isNaN else { return range.lowerBound }
        return min(max(x, range.lowerBound), range.upperBound)
    }

    /// A Float value clamped to `range` and rounded to `decimals` places.
    public static func float(_ x: Double, _ range: ClosedRange<Double>, decimals: Int = 2) -> SDLJSON {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return .double(clamp((clamp(x, range) * scale).rounded() / scale, range))
    }

    /// An Integer value: `x` rounded down and clamped to `range`.
    public static func integer(_ x: Double, _ range: ClosedRange<Int64>) -> SDLJSON {
        let clamped = clamp(x.rounded(.down), Double(range.lowerBound)...Double(range.upperBound))
        return .int(Int64(clamped))
    }

    /// Heading in degrees clockwise from north, normalised to 0…359.99 (GPSData.heading).
    public static func heading(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return 0 }
        var h = degrees.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        h = (h * 100).rounded() / 100
        return h > 359.99 ? 0 : h
    }

    /// The CompassDirection enum name of `heading` (eight 45° sectors centred on the directions).
    public static func compassDirection(_ heading: Double) -> String {
        let names = ["NORTH", "NORTHEAST", "EAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "WEST", "NORTHWEST"]
        let sector = Int((self.heading(heading) + 22.5) / 45) % 8
        return names[sector]
    }

    /// The UTC civil time of `epochSeconds` (seconds since 1970-01-01T00:00:00Z), proleptic
    /// Gregorian calendar (H. Hinnant's `civil_from_days`).
    public static func utc(epochSeconds: Int64) -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        var days = epochSeconds / 86_400
        var secondsOfDay = epochSeconds % 86_400
        if secondsOfDay < 0 {
            secondsOfDay += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondsOfDay / 3600, secondsOfDay % 3600 / 60, secondsOfDay % 60)
    }

    /// A GPSData with a 3D fix. `speed` in km/h, `heading` in degrees, UTC fields from
    /// `epochSeconds` when given (only while the year is in 2010…2100).
    public static func gps(
        latitude: Double, longitude: Double, altitude: Double? = nil, heading: Double? = nil,
        speed: Double? = nil, epochSeconds: Int64? = nil, satellites: Int64? = nil,
        pdop: Double? = nil, hdop: Double? = nil, vdop: Double? = nil
    ) -> SDLJSON {
        var gps: [String: SDLJSON] = [
            "latitudeDegrees": float(latitude, -90...90, decimals: 6),
            "longitudeDegrees": float(longitude, -180...180, decimals: 6),
        ]
        if let altitude { gps["altitude"] = float(altitude, -10_000...10_000, decimals: 1) }
        if let heading {
            let h = self.heading(heading)
            gps["heading"] = .double(h)
            gps["compassDirection"] = .string(compassDirection(h))
        }
        if let speed { gps["speed"] = float(speed, 0...500, decimals: 1) }
        if let epochSeconds {
            let t = utc(epochSeconds: epochSeconds)
            if (2010...2100).contains(t.year) {
                gps["utcYear"] = .int(t.year)
                gps["utcMonth"] = .int(t.month)
                gps["utcDay"] = .int(t.day)
                gps["utcHours"] = .int(t.hour)
                gps["utcMinutes"] = .int(t.minute)
                gps["utcSeconds"] = .int(t.second)
            }
        }
        if let satellites {
            gps["satellites"] = .int(min(max(satellites, 0), 31))
            gps["actual"] = true
            gps["shifted"] = false
            gps["dimension"] = .string(satellites >= 4 ? "3D" : satellites == 3 ? "2D" : "NO_FIX")
        }
        if let pdop { gps["pdop"] = float(pdop, 0...1000, decimals: 1) }
        if let hdop { gps["hdop"] = float(hdop, 0...1000, decimals: 1) }
        if let vdop { gps["vdop"] = float(vdop, 0...1000, decimals: 1) }
        return .object(gps)
    }

    /// HeadLampStatus (both beam flags are mandatory).
    public static func headLampStatus(lowBeamsOn: Bool, highBeamsOn: Bool, ambientLight: String? = nil) -> SDLJSON {
        var status: [String: SDLJSON] = ["lowBeamsOn": .bool(lowBeamsOn), "highBeamsOn": .bool(highBeamsOn)]
        if let ambientLight { status["ambientLightSensorStatus"] = .string(ambientLight) }
        return .object(status)
    }

    /// GearStatus with PRNDL names (`DRIVE`, `PARK`, `FIRST` …) and a TransmissionType name.
    public static func gearStatus(userSelected: String?, actual: String?, transmission: String? = nil) -> SDLJSON {
        var status: [String: SDLJSON] = [:]
        if let userSelected { status["userSelectedGear"] = .string(userSelected) }
        if let actual { status["actualGear"] = .string(actual) }
        if let transmission { status["transmissionType"] = .string(transmission) }
        return .object(status)
    }

    /// A Grid cell (seats, doors and windows: row 0 is the front row, col 0 the left side).
    public static func grid(col: Int64, row: Int64) -> SDLJSON {
        ["col": .int(col), "row": .int(row)]
    }

    /// The four doors of a sedan, in `driver, passenger, rearLeft, rearRight` order.
    public static let doorGrids: [SDLJSON] = [grid(col: 0, row: 0), grid(col: 2, row: 0), grid(col: 0, row: 1), grid(col: 2, row: 1)]

    /// BodyInformation. `doors` are DoorStatusType names (`CLOSED`, `LOCKED`, `AJAR`) for the
    /// cells of ``doorGrids`` in order; `nil` entries are left out.
    public static func bodyInformation(
        parkBrakeActive: Bool, ignitionStatus: String, ignitionStable: Bool = true, doors: [String?] = []
    ) -> SDLJSON {
        var body: [String: SDLJSON] = [
            "parkBrakeActive": .bool(parkBrakeActive),
            "ignitionStableStatus": .string(ignitionStable ? "IGNITION_SWITCH_STABLE" : "IGNITION_SWITCH_NOT_STABLE"),
            "ignitionStatus": .string(ignitionStatus),
        ]
        var doorStatuses: [SDLJSON] = []
        for (index, status) in doors.enumerated() where index < doorGrids.count {
            if let status { doorStatuses.append(["location": doorGrids[index], "status": .string(status)]) }
        }
        if !doorStatuses.isEmpty { body["doorStatuses"] = .array(doorStatuses) }
        return .object(body)
    }

    /// BeltStatus: the driver's and front passenger's buckles as given, nothing deployed, the
    /// rear rows NOT_SUPPORTED.
    public static func beltStatus(driverBuckled: Bool, passengerBuckled: Bool) -> SDLJSON {
        let yesNo: (Bool) -> SDLJSON = { $0 ? "YES" : "NO" }
        return [
            "driverBeltDeployed": "NO", "passengerBeltDeployed": "NO",
            "driverBuckleBelted": yesNo(driverBuckled), "passengerBuckleBelted": yesNo(passengerBuckled),
            "passengerChildDetected": "NO",
            "leftRow2BuckleBelted": "NOT_SUPPORTED", "rightRow2BuckleBelted": "NOT_SUPPORTED",
            "middleRow2BuckleBelted": "NOT_SUPPORTED", "middleRow3BuckleBelted": "NOT_SUPPORTED",
            "leftRow3BuckleBelted": "NOT_SUPPORTED", "rightRow3BuckleBelted": "NOT_SUPPORTED",
            "leftRearInflatableBelted": "NOT_SUPPORTED", "rightRearInflatableBelted": "NOT_SUPPORTED",
            "middleRow1BeltDeployed": "NOT_SUPPORTED", "middleRow1BuckleBelted": "NOT_SUPPORTED",
        ]
    }

    /// TireStatus with four tires at `pressures` kPa (left front, right front, left rear, right rear).
    public static func tireStatus(pressures: [Double]) -> SDLJSON {
        let keys = ["leftFront", "rightFront", "leftRear", "rightRear"]
        var status: [String: SDLJSON] = ["pressureTelltale": "OFF"]
        for (key, pressure) in zip(keys, pressures) {
            status[key] = ["status": "NORMAL", "tpms": "SYSTEM_ACTIVE", "pressure": float(pressure, 0...2000, decimals: 1)]
        }
        return .object(status)
    }

    /// A one-element FuelRange array for a gasoline tank: `level` in %, `range` in km,
    /// `capacity` in litres.
    public static func fuelRange(level: Double?, range: Double?, capacity: Double? = nil) -> SDLJSON {
        var fuel: [String: SDLJSON] = ["type": "GASOLINE"]
        if let level {
            fuel["level"] = float(level, -6...1_000_000, decimals: 1)
            fuel["levelState"] = .string(fuelLevelState(level))
        }
        if let range { fuel["range"] = float(range, 0...10_000, decimals: 1) }
        if let capacity {
            fuel["capacity"] = float(capacity, 0...1_000_000, decimals: 1)
            fuel["capacityUnit"] = "LITERS"
        }
        return [.object(fuel)]
    }

    /// The ComponentVolumeStatus of a fuel level in %: LOW below 15 %, else NORMAL.
    public static func fuelLevelState(_ level: Double) -> String {
        level < 15 ? "LOW" : "NORMAL"
    }

    /// ClimateData in degrees Celsius and mbar.
    public static func climateData(externalTemperature: Double, cabinTemperature: Double?, atmosphericPressure: Double?) -> SDLJSON {
        var climate: [String: SDLJSON] = [
            "externalTemperature": ["unit": "CELSIUS", "value": float(externalTemperature, -273...1000, decimals: 1)]
        ]
        if let cabinTemperature {
            climate["cabinTemperature"] = ["unit": "CELSIUS", "value": float(cabinTemperature, -273...1000, decimals: 1)]
        }
        if let atmosphericPressure { climate["atmosphericPressure"] = float(atmosphericPressure, 0...2000, decimals: 1) }
        return .object(climate)
    }

    /// WindowStatus for the four door windows, `openPercent` each (0 = closed).
    public static func windowStatus(openPercent: [Int64]) -> SDLJSON {
        .array(
            zip(doorGrids, openPercent).map { grid, open in
                ["location": grid, "state": ["approximatePosition": .int(min(max(open, 0), 100)), "deviation": 0]]
            })
    }

    /// SeatOccupancy for the two front seats.
    public static func seatOccupancy(driver: (occupied: Bool, belted: Bool), passenger: (occupied: Bool, belted: Bool)) -> SDLJSON {
        let seat: (SDLJSON, Bool) -> SDLJSON = { grid, active in ["seatLocation": ["grid": grid], "conditionActive": .bool(active)] }
        return [
            "seatsOccupied": [seat(doorGrids[0], driver.occupied), seat(doorGrids[1], passenger.occupied)],
            "seatsBelted": [seat(doorGrids[0], driver.belted), seat(doorGrids[1], passenger.belted)],
        ]
    }

    /// The values of a healthy, quiet car that change rarely: no airbag, eCall or emergency
    /// event, ESC on, cluster in normal running mode, MyKey absent.
    public static let steadyState: [String: SDLJSON] = [
        "stabilityControlsStatus": ["escSystem": "ON", "trailerSwayControl": "OFF"],
        "eCallInfo": ["eCallNotificationStatus": "NORMAL", "auxECallNotificationStatus": "NORMAL", "eCallConfirmationStatus": "NORMAL"],
        "airbagStatus": [
            "driverAirbagDeployed": "NO", "driverSideAirbagDeployed": "NO", "driverCurtainAirbagDeployed": "NO",
            "passengerAirbagDeployed": "NO", "passengerCurtainAirbagDeployed": "NO", "driverKneeAirbagDeployed": "NO",
            "passengerSideAirbagDeployed": "NO", "passengerKneeAirbagDeployed": "NO",
        ],
        "emergencyEvent": [
            "emergencyEventType": "NO_EVENT", "fuelCutoffStatus": "NORMAL_OPERATION", "rolloverEvent": "NO",
            "maximumChangeVelocity": 0, "multipleEvents": "NO",
        ],
        "clusterModeStatus": [
            "powerModeActive": true, "powerModeQualificationStatus": "POWER_MODE_OK", "carModeStatus": "NORMAL",
            "powerModeStatus": "RUNNING_2",
        ],
        "myKey": ["e911Override": "NO_DATA_EXISTS"],
        "handsOffSteering": false,
        "wiperStatus": "OFF",
    ]
}
