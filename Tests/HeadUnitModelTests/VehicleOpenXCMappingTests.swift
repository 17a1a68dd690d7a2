import HeadUnitModel
import SDLProtocol
import Testing

@Suite struct VehicleOpenXCMappingTests {
    func record(_ name: String, _ value: SDLJSON, event: SDLJSON? = nil, at seconds: Int64 = 0) -> OpenXCRecord {
        OpenXCRecord(name: name, value: value, event: event, offset: .seconds(seconds))
    }

    func data(_ events: [SimulatedVehicleEvent]) -> [String: SDLJSON] {
        events.mergedVehicleData
    }

    @Test(
        arguments: [
            ("vehicle_speed", 42.1 as SDLJSON, ["speed": 42.1] as [String: SDLJSON]),
            ("vehicle_speed", -3, ["speed": 0.0]),
            ("engine_speed", 772.6, ["rpm": 773]),
            ("engine_speed", 25000, ["rpm": 20000]),
            ("odometer", 13966.579102, ["odometer": 13966]),
            ("steering_wheel_angle", -12.5, ["steeringWheelAngle": -12.5]),
            ("steering_wheel_angle", 4000, ["steeringWheelAngle": 2000.0]),
            ("steering_wheel_angle", -4000, ["steeringWheelAngle": -2000.0]),
            ("accelerator_pedal_position", 37.25, ["accPedalPosition": 37.25]),
            ("accelerator_pedal_position", 130, ["accPedalPosition": 100.0]),
            ("torque_at_transmission", 3, ["engineTorque": 3.0]),
            ("torque_at_transmission", -5000, ["engineTorque": -1000.0]),
            (
                "fuel_level", 12.5,
                ["fuelLevel": 12.5, "fuelLevel_State": "LOW", "fuelRange": [["type": "GASOLINE", "level": 12.5, "levelState": "LOW"]]]
            ),
            (
                "fuel_level", 60,
                [
                    "fuelLevel": 60.0, "fuelLevel_State": "NORMAL",
                    "fuelRange": [["type": "GASOLINE", "level": 60.0, "levelState": "NORMAL"]],
                ]
            ),
            (
                "transmission_gear_position", "first",
                ["prndl": "FIRST", "gearStatus": ["userSelectedGear": "DRIVE", "actualGear": "FIRST"]]
            ),
            (
                "transmission_gear_position", "sixth",
                ["prndl": "SIXTH", "gearStatus": ["userSelectedGear": "DRIVE", "actualGear": "SIXTH"]]
            ),
            (
                "transmission_gear_position", "neutral",
                ["prndl": "NEUTRAL", "gearStatus": ["userSelectedGear": "NEUTRAL", "actualGear": "NEUTRAL"]]
            ),
            (
                "transmission_gear_position", "reverse",
                ["prndl": "REVERSE", "gearStatus": ["userSelectedGear": "REVERSE", "actualGear": "REVERSE"]]
            ),
            ("transmission_gear_position", "park", ["prndl": "PARK", "gearStatus": ["userSelectedGear": "PARK", "actualGear": "PARK"]]),
            ("brake_pedal_status", true, ["driverBraking": "YES"]),
            ("brake_pedal_status", false, ["driverBraking": "NO"]),
            ("windshield_wiper_status", true, ["wiperStatus": "MAN_LOW"]),
            ("windshield_wiper_status", false, ["wiperStatus": "OFF"]),
            ("headlamp_status", true, ["headLampStatus": ["lowBeamsOn": true, "highBeamsOn": false]]),
            ("high_beam_status", true, ["headLampStatus": ["lowBeamsOn": false, "highBeamsOn": true]]),
            (
                "parking_brake_status", true,
                [
                    "electronicParkBrakeStatus": "CLOSED",
                    "bodyInformation": [
                        "parkBrakeActive": true, "ignitionStableStatus": "IGNITION_SWITCH_STABLE", "ignitionStatus": "UNKNOWN",
                    ],
                ]
            ),
            (
                "parking_brake_status", false,
                [
                    "electronicParkBrakeStatus": "OPEN",
                    "bodyInformation": [
                        "parkBrakeActive": false, "ignitionStableStatus": "IGNITION_SWITCH_STABLE", "ignitionStatus": "UNKNOWN",
                    ],
                ]
            ),
            (
                "ignition_status", "run",
                ["bodyInformation": ["parkBrakeActive": false, "ignitionStableStatus": "IGNITION_SWITCH_STABLE", "ignitionStatus": "RUN"]]
            ),
            (
                "ignition_status", "accessory",
                [
                    "bodyInformation": [
                        "parkBrakeActive": false, "ignitionStableStatus": "IGNITION_SWITCH_STABLE", "ignitionStatus": "ACCESSORY",
                    ]
                ]
            ),
        ] as [(String, SDLJSON, [String: SDLJSON])])
    func mapsOneSignal(name: String, value: SDLJSON, expected: [String: SDLJSON]) throws {
        var mapping = OpenXCMapping()
        let mapped = data(mapping.map(record(name, value)))
        #expect(mapped == expected)
        #expect(try VehicleFixture.issues(mapped).isEmpty)
    }

    @Test func wrongTypesAndUnknownNamesGiveNothing() {
        var mapping = OpenXCMapping()
        #expect(mapping.map(record("vehicle_speed", "fast")).isEmpty)
        #expect(mapping.map(record("transmission_gear_position", "warp")).isEmpty)
        #expect(mapping.map(record("headlamp_status", 1)).isEmpty)
        #expect(mapping.map(record("lateral_acceleration", 0.3)).isEmpty)
        #expect(mapping.map(record("button_event", "eject", event: "pressed")).isEmpty)
        #expect(mapping.map(record("door_status", "driver")).isEmpty)
    }

    @Test func gpsNeedsBothCoordinatesAndKeepsTheLatestOfEach() throws {
        var mapping = OpenXCMapping()
        #expect(mapping.map(record("latitude", 42.29)).isEmpty)
        let first = data(mapping.map(record("longitude", -83.23)))
        #expect(first == ["gps": ["latitudeDegrees": 42.29, "longitudeDegrees": -83.23, "actual": true]])
        let moved = data(mapping.map(record("latitude", 42.3)))
        #expect(moved["gps"]?["latitudeDegrees"] == 42.3)
        #expect(moved["gps"]?["longitudeDegrees"] == -83.23)
        #expect(try VehicleFixture.issues(moved).isEmpty)
        let clamped = data(mapping.map(record("latitude", 95)))
        #expect(clamped["gps"]?["latitudeDegrees"] == 90.0)
    }

    @Test func headlampsKeepTheOtherBeam() {
        var mapping = OpenXCMapping()
        _ = mapping.map(record("high_beam_status", true))
        #expect(data(mapping.map(record("headlamp_status", true)))["headLampStatus"] == ["lowBeamsOn": true, "highBeamsOn": true])
        #expect(data(mapping.map(record("high_beam_status", false)))["headLampStatus"] == ["lowBeamsOn": true, "highBeamsOn": false])
    }

    @Test func bodyInformationCombinesIgnitionParkBrakeAndDoors() throws {
        var mapping = OpenXCMapping()
        _ = mapping.map(record("ignition_status", "start"))
        _ = mapping.map(record("parking_brake_status", true))
        let ajar = data(mapping.map(record("door_status", "driver", event: true)))
        #expect(
            ajar["bodyInformation"] == [
                "parkBrakeActive": true, "ignitionStableStatus": "IGNITION_SWITCH_STABLE", "ignitionStatus": "START",
                "doorStatuses": [["location": ["col": 0, "row": 0], "status": "AJAR"]],
            ])
        let both = data(mapping.map(record("door_status", "rear_right", event: false)))
        #expect(
            both["bodyInformation"]?["doorStatuses"] == [
                ["location": ["col": 0, "row": 0], "status": "AJAR"],
                ["location": ["col": 2, "row": 1], "status": "CLOSED"],
            ])
        #expect(try VehicleFixture.issues(both).isEmpty)
    }

    @Test func fuelConsumedBecomesARate() throws {
        var mapping = OpenXCMapping()
        #expect(mapping.map(record("fuel_consumed_since_restart", 7.0, at: 0)).isEmpty)
        // 0.002 L in 2 s = 1000 µL/s.
        #expect(data(mapping.map(record("fuel_consumed_since_restart", 7.002, at: 2))) == ["instantFuelConsumption": 1000.0])
        // A reset (smaller value) gives nothing, then rates resume from it.
        #expect(mapping.map(record("fuel_consumed_since_restart", 0.5, at: 3)).isEmpty)
        #expect(data(mapping.map(record("fuel_consumed_since_restart", 0.6, at: 4))) == ["instantFuelConsumption": 25575.0])
    }

    @Test(arguments: [("left", "SEEKLEFT"), ("right", "SEEKRIGHT"), ("up", "TUNEUP"), ("down", "TUNEDOWN"), ("ok", "OK")])
    func shortPress(openXC: String, sdl: String) {
        var mapping = OpenXCMapping()
        #expect(mapping.map(record("button_event", .string(openXC), event: "pressed")) == [.buttonEvent(name: sdl, mode: .buttonDown)])
        #expect(mapping.map(record("button_event", .string(openXC), event: "held_short")).isEmpty)
        #expect(
            mapping.map(record("button_event", .string(openXC), event: "released")) == [
                .buttonEvent(name: sdl, mode: .buttonUp), .buttonPress(name: sdl, mode: .short),
            ])
    }

    @Test func longPressAndSynthesisedDowns() {
        var mapping = OpenXCMapping()
        #expect(mapping.map(record("button_event", "ok", event: "pressed")) == [.buttonEvent(name: "OK", mode: .buttonDown)])
        #expect(mapping.map(record("button_event", "ok", event: "held_long")) == [.buttonPress(name: "OK", mode: .long)])
        #expect(mapping.map(record("button_event", "ok", event: "held_long")).isEmpty)
        #expect(mapping.map(record("button_event", "ok", event: "released")) == [.buttonEvent(name: "OK", mode: .buttonUp)])
        // A release without a press, and a long hold without a press.
        #expect(
            mapping.map(record("button_event", "down", event: "released")) == [
                .buttonEvent(name: "TUNEDOWN", mode: .buttonDown), .buttonEvent(name: "TUNEDOWN", mode: .buttonUp),
                .buttonPress(name: "TUNEDOWN", mode: .short),
            ])
        #expect(
            mapping.map(record("button_event", "left", event: "held_long")) == [
                .buttonEvent(name: "SEEKLEFT", mode: .buttonDown), .buttonPress(name: "SEEKLEFT", mode: .long),
            ])
        #expect(mapping.map(record("button_event", "left", event: "stuck")).isEmpty)
    }

    @Test func everyMappedSignalIsUnderstood() {
        for name in OpenXCMapping.openXCNames {
            var mapping = OpenXCMapping()
            if name == "latitude" { _ = mapping.map(record("longitude", 1)) }
            if name == "longitude" { _ = mapping.map(record("latitude", 1)) }
            let samples: [SDLJSON] = [1, true, "first", "run", "driver", "ok"]
            let produced = samples.contains { value in
                !mapping.map(record(name, value, event: name == "door_status" ? true : "released", at: 1)).isEmpty
                    || !mapping.map(record(name, value, event: "released", at: 2)).isEmpty
            }
            #expect(produced, "\(name)")
        }
    }
}
