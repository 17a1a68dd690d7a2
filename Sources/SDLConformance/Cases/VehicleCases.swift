import SDLClient
import SDLProtocol

/// Buttons and vehicle data: SubscribeButton and a press, GetVehicleData, SubscribeVehicleData and
/// its OnVehicleData (MOBILE_API.xml 8.0.0).
enum VehicleCases {
    static let all = [subscribeButton, buttonPress, getVehicleData, subscribeVehicleData, vehicleNotification]

    /// SubscribeButton SEEKLEFT: SUCCESS; again: IGNORED (already subscribed); UnsubscribeButton.
    static let subscribeButton = ConformanceCase("button.subscribe", "SubscribeButton, twice: IGNORED") { context in
        try await context.activate()
        try await context.request("SubscribeButton", ["buttonName": "SEEKLEFT"])
        try await context.request("SubscribeButton", ["buttonName": "SEEKLEFT"], expect: ["IGNORED"])
        try await context.request("UnsubscribeButton", ["buttonName": "SEEKLEFT"])
    }

    /// The driver presses SEEKRIGHT, which the app subscribed: OnButtonEvent and OnButtonPress SHORT.
    static let buttonPress = ConformanceCase("button.press", "the driver presses a subscribed button", needsDriver: true) { context in
        let driver = try context.requireDriver()
        try await context.activate()
        try await context.request("SubscribeButton", ["buttonName": "SEEKRIGHT"])
        let mark = try await context.mark()
        try await context.act { try await driver.pressButton("SEEKRIGHT", mode: "SHORT") }
        try await context.notification("OnButtonEvent", after: mark, describing: "OnButtonEvent SEEKRIGHT") {
            $0["buttonName"]?.stringValue == "SEEKRIGHT"
        }
        let press = try await context.notification("OnButtonPress", after: mark, describing: "OnButtonPress SEEKRIGHT") {
            $0["buttonName"]?.stringValue == "SEEKRIGHT"
        }
        try context.expect("OnButtonPress buttonPressMode", press["buttonPressMode"]?.stringValue, equals: "SHORT")
        try await context.request("UnsubscribeButton", ["buttonName": "SEEKRIGHT"])
    }

    /// GetVehicleData of speed and rpm: SUCCESS with both.
    static let getVehicleData = ConformanceCase("vehicle.get", "GetVehicleData: speed, rpm") { context in
        try await context.activate()
        let response = try await context.request("GetVehicleData", ["speed": true, "rpm": true])
        for name in ["speed", "rpm"] {
            try context.expect(response[name] != nil, "GetVehicleData has no \(name)", expected: "\(name) present", got: "absent")
        }
    }

    /// SubscribeVehicleData of speed: SUCCESS with `speed.resultCode` SUCCESS; again: IGNORED
    /// with DATA_ALREADY_SUBSCRIBED; UnsubscribeVehicleData.
    static let subscribeVehicleData = ConformanceCase("vehicle.subscribe", "SubscribeVehicleData, twice: IGNORED") { context in
        try await context.activate()
        let first = try await context.request("SubscribeVehicleData", ["speed": true])
        try context.expect("SubscribeVehicleData speed.resultCode", first["speed"]?["resultCode"]?.stringValue, equals: "SUCCESS")
        let again = try await context.request("SubscribeVehicleData", ["speed": true], expect: ["IGNORED"])
        try context.expect(
            "SubscribeVehicleData again: speed.resultCode", again["speed"]?["resultCode"]?.stringValue, equals: "DATA_ALREADY_SUBSCRIBED")
        try await context.request("UnsubscribeVehicleData", ["speed": true])
    }

    /// Subscribed to speed, the vehicle reports 42.5 km/h: OnVehicleData with that speed.
    static let vehicleNotification = ConformanceCase(
        "vehicle.notification", "OnVehicleData after the vehicle reports a speed", needsDriver: true
    ) { context in
        let driver = try context.requireDriver()
        try await context.activate()
        try await context.request("SubscribeVehicleData", ["speed": true])
        let mark = try await context.mark()
        try await context.act { try await driver.setVehicleData(["speed": 42.5]) }
        let result: Result<Void, any Error>
        do {
            try await context.notification("OnVehicleData", after: mark, describing: "OnVehicleData speed 42.5") {
                $0["speed"]?.doubleValue == 42.5
            }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        try? await driver.setVehicleData(["speed": .null])
        try result.get()
        try await context.request("UnsubscribeVehicleData", ["speed": true])
    }
}
