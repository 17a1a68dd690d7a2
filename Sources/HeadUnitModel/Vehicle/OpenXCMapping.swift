import SDLProtocol

/// Turns OpenXC signal messages into SDL vehicle data and button events.
///
/// | OpenXC `name` (value)                         | SDL                                                    |
/// |-----------------------------------------------|--------------------------------------------------------|
/// | `vehicle_speed` (km/h)                        | `speed` (0…700)                                        |
/// | `engine_speed` (rpm)                          | `rpm` (Integer, 0…20000)                               |
/// | `fuel_level` (%)                              | `fuelLevel` (-6…106), `fuelLevel_State` (LOW < 15 %), `fuelRange` [{GASOLINE, level, levelState}] |
/// | `fuel_consumed_since_restart` (L, cumulative) | `instantFuelConsumption`: its rate in µL/s between two records (0…25575) |
/// | `odometer` (km)                               | `odometer` (Integer, rounded down, 0…17000000)         |
/// | `steering_wheel_angle` (°)                    | `steeringWheelAngle` (clamped to -2000…2000)           |
/// | `accelerator_pedal_position` (%)              | `accPedalPosition` (0…100)                             |
/// | `torque_at_transmission` (Nm)                 | `engineTorque` (-1000…2000)                            |
/// | `latitude`, `longitude` (°)                   | `gps` {latitudeDegrees, longitudeDegrees, actual} once both are known, with the latest of each |
/// | `transmission_gear_position` (`first`…`tenth`, `neutral`, `reverse`, `park`) | `prndl` (FIRST…TENTH, NEUTRAL, REVERSE, PARK), `gearStatus` {userSelectedGear: DRIVE for a numbered gear, else the same; actualGear} |
/// | `headlamp_status` (bool)                      | `headLampStatus.lowBeamsOn`                            |
/// | `high_beam_status` (bool)                     | `headLampStatus.highBeamsOn`                           |
/// | `brake_pedal_status` (bool)                   | `driverBraking` YES / NO                               |
/// | `parking_brake_status` (bool)                 | `electronicParkBrakeStatus` CLOSED / OPEN, `bodyInformation.parkBrakeActive` |
/// | `ignition_status` (`off`, `accessory`, `run`, `start`) | `bodyInformation.ignitionStatus` (OFF, ACCESSORY, RUN, START) |
/// | `door_status` (`driver`, `passenger`, `rear_left`, `rear_right`; event: ajar bool) | `bodyInformation.doorStatuses` AJAR / CLOSED |
/// | `windshield_wiper_status` (bool)              | `wiperStatus` MAN_LOW / OFF                            |
/// | `button_event` (`left`, `right`, `up`, `down`, `ok`; event `pressed`, `released`, `held_short`, `held_long`) | SEEKLEFT, SEEKRIGHT, TUNEUP, TUNEDOWN, OK: see below |
///
/// Buttons follow SDL's order: `pressed` → BUTTONDOWN; `held_long` → OnButtonPress LONG;
/// `released` → BUTTONUP, then OnButtonPress SHORT unless LONG was sent for that press;
/// `held_short` changes nothing. A `released` or `held_long` without a `pressed` first gets
/// its BUTTONDOWN synthesised. `headLampStatus` and `bodyInformation` keep their other
/// members from earlier records (lamps off, park brake off, ignition UNKNOWN at first).
///
/// Other names (`fine_odometer_since_restart`, `lateral_acceleration` …), values of the wrong
/// JSON type and unknown enum values give nothing.
public struct OpenXCMapping: Sendable {
    private var latitude: Double?
    private var longitude: Double?
    private var lowBeams = false
    private var highBeams = false
    private var parkBrake = false
    private var ignition = "UNKNOWN"
    private var doors: [String?] = [nil, nil, nil, nil]
    private var fuelConsumed: (litres: Double, offset: Duration)?
    /// Buttons down, and whether LONG was sent for the press.
    private var pressed: [String: Bool] = [:]

    public init() {}

    /// The OpenXC names this mapping understands.
    public static let openXCNames: [String] = [
        "vehicle_speed", "engine_speed", "fuel_level", "fuel_consumed_since_restart", "odometer",
        "steering_wheel_angle", "accelerator_pedal_position", "torque_at_transmission", "latitude",
        "longitude", "transmission_gear_position", "headlamp_status", "high_beam_status",
        "brake_pedal_status", "parking_brake_status", "ignition_status", "door_status",
        "windshield_wiper_status", "button_event",
    ]

    /// The SDL ButtonName of an OpenXC `button_event` value.
    public static let buttonNames: [String: String] = [
        "left": "SEEKLEFT", "right": "SEEKRIGHT", "up": "TUNEUP", "down": "TUNEDOWN", "ok": "OK",
    ]

    static let gears: [String: String] = [
        "first": "FIRST", "second": "SECOND", "third": "THIRD", "fourth": "FOURTH", "fifth": "FIFTH",
        "sixth": "SIXTH", "seventh": "SEVENTH", "eighth": "EIGHTH", "ninth": "NINTH", "tenth": "TENTH",
        "neutral": "NEUTRAL", "reverse": "REVERSE", "park": "PARK",
    ]

    static let ignitionStates: [String: String] = ["off": "OFF", "accessory": "ACCESSORY", "run": "RUN", "start": "START"]

    static let doorIndex: [String: Int] = ["driver": 0, "passenger": 1, "rear_left": 2, "rear_right": 3]

    /// The SDL events of one record, in order. Vehicle data comes as one ``SimulatedVehicleEvent/vehicleData(_:)``
    /// with every SDL name the record sets (changed or not).
    public mutating func map(_ record: OpenXCRecord) -> [SimulatedVehicleEvent] {
        let value = record.value
        let f = VehicleDataValue.float
        func data(_ values: [String: SDLJSON]) -> [SimulatedVehicleEvent] { [.vehicleData(values)] }

        switch record.name {
        case "vehicle_speed":
            guard let x = value.doubleValue else { return [] }
            return data(["speed": f(x, 0...700, 2)])
        case "engine_speed":
            guard let x = value.doubleValue else { return [] }
            return data(["rpm": VehicleDataValue.integer(x.rounded(), 0...20_000)])
        case "fuel_level":
            guard let x = value.doubleValue else { return [] }
            let level = VehicleDataValue.clamp(x, -6...106)
            return data([
                "fuelLevel": f(level, -6...106, 2),
                "fuelLevel_State": .string(VehicleDataValue.fuelLevelState(level)),
                "fuelRange": VehicleDataValue.fuelRange(level: level, range: nil),
            ])
        case "fuel_consumed_since_restart":
            guard let litres = value.doubleValue else { return [] }
            defer { fuelConsumed = (litres, record.offset) }
            guard let last = fuelConsumed, record.offset > last.offset, litres >= last.litres else { return [] }
            let seconds = GeneratedDrive.seconds(record.offset - last.offset)
            return data(["instantFuelConsumption": f((litres - last.litres) * 1_000_000 / seconds, 0...25_575, 1)])
        case "odometer":
            guard let x = value.doubleValue else { return [] }
            return data(["odometer": VehicleDataValue.integer(x, 0...17_000_000)])
        case "steering_wheel_angle":
            guard let x = value.doubleValue else { return [] }
            return data(["steeringWheelAngle": f(x, -2000...2000, 2)])
        case "accelerator_pedal_position":
            guard let x = value.doubleValue else { return [] }
            return data(["accPedalPosition": f(x, 0...100, 2)])
        case "torque_at_transmission":
            guard let x = value.doubleValue else { return [] }
            return data(["engineTorque": f(x, -1000...2000, 2)])
        case "latitude", "longitude":
            guard let x = value.doubleValue, x.isFinite else { return [] }
            if record.name == "latitude" { latitude = x } else { longitude = x }
            guard let latitude, let longitude else { return [] }
            var gps = VehicleDataValue.gps(latitude: latitude, longitude: longitude).objectValue ?? [:]
            gps["actual"] = true
            return data(["gps": .object(gps)])
        case "transmission_gear_position":
            guard let gear = value.stringValue.flatMap({ Self.gears[$0.lowercased()] }) else { return [] }
            let selected = ["PARK", "REVERSE", "NEUTRAL"].contains(gear) ? gear : "DRIVE"
            return data(["prndl": .string(gear), "gearStatus": VehicleDataValue.gearStatus(userSelected: selected, actual: gear)])
        case "headlamp_status", "high_beam_status":
            guard let on = value.boolValue else { return [] }
            if record.name == "headlamp_status" { lowBeams = on } else { highBeams = on }
            return data(["headLampStatus": VehicleDataValue.headLampStatus(lowBeamsOn: lowBeams, highBeamsOn: highBeams)])
        case "brake_pedal_status":
            guard let on = value.boolValue else { return [] }
            return data(["driverBraking": on ? "YES" : "NO"])
        case "parking_brake_status":
            guard let on = value.boolValue else { return [] }
            parkBrake = on
            return data(["electronicParkBrakeStatus": on ? "CLOSED" : "OPEN", "bodyInformation": bodyInformation])
        case "ignition_status":
            guard let state = value.stringValue.flatMap({ Self.ignitionStates[$0.lowercased()] }) else { return [] }
            ignition = state
            return data(["bodyInformation": bodyInformation])
        case "door_status":
            guard let door = value.stringValue.flatMap({ Self.doorIndex[$0.lowercased()] }), let ajar = record.event?.boolValue else {
                return []
            }
            doors[door] = ajar ? "AJAR" : "CLOSED"
            return data(["bodyInformation": bodyInformation])
        case "windshield_wiper_status":
            guard let on = value.boolValue else { return [] }
            return data(["wiperStatus": on ? "MAN_LOW" : "OFF"])
        case "button_event":
            guard let name = value.stringValue.flatMap({ Self.buttonNames[$0.lowercased()] }),
                let event = record.event?.stringValue?.lowercased()
            else { return [] }
            return button(name, event)
        default:
            return []
        }
    }

    private var bodyInformation: SDLJSON {
        VehicleDataValue.bodyInformation(parkBrakeActive: parkBrake, ignitionStatus: ignition, doors: doors)
    }

    private mutating func button(_ name: String, _ event: String) -> [SimulatedVehicleEvent] {
        var events: [SimulatedVehicleEvent] = []
        switch event {
        case "pressed":
            if pressed[name] != nil { return [] }
            pressed[name] = false
            events.append(.buttonEvent(name: name, mode: .buttonDown))
        case "held_long":
            if pressed[name] == nil { events.append(.buttonEvent(name: name, mode: .buttonDown)) }
            if pressed[name] != true { events.append(.buttonPress(name: name, mode: .long)) }
            pressed[name] = true
        case "released":
            if pressed[name] == nil { events.append(.buttonEvent(name: name, mode: .buttonDown)) }
            events.append(.buttonEvent(name: name, mode: .buttonUp))
            if pressed[name] != true { events.append(.buttonPress(name: name, mode: .short)) }
            pressed[name] = nil
        default:
            break
        }
        return events
    }
}
