import HeadUnitModel
import HeadlessHMI
import SDLProtocol
import Testing

@Suite("The headless HMI's state machine")
struct HeadlessHMITests {
    static func hmi(autoActivate: Bool = false) -> HeadlessHMI {
        HeadlessHMI(answers: HMIAnswers(profile: .default), autoActivate: autoActivate)
    }

    /// Connects and answers every registration as Core does (1000 × n); what came out last.
    static func ready(_ hmi: inout HeadlessHMI) throws -> [HMIMessage] {
        let registrations = hmi.connected()
        var last: [HMIMessage] = []
        for (index, message) in registrations.enumerated() {
            guard case .request(let id, _, _) = message else { Issue.record("not a request: \(message)"); return [] }
            last = try hmi.receive(.response(id: id, result: .int(Int64(1000 * (index + 1)))))
        }
        return last
    }

    @Test("Connecting registers every component on the one connection; once Core answered all, it subscribes and sends OnReady")
    func registration() throws {
        var hmi = Self.hmi()
        let registrations = hmi.connected()
        #expect(registrations.count == HeadlessHMI.components.count)
        #expect(registrations.first == .request(id: 1, method: "MB.registerComponent", params: ["componentName": "BasicCommunication"]))
        #expect(hmi.phase == .registering(pending: Set(HeadlessHMI.components)))
        let last = try Self.ready(&hmi)
        #expect(hmi.phase == .ready)
        #expect(last.count == HeadlessHMI.subscriptions.count + 1)
        #expect(last.first == .request(id: 1000, method: "MB.subscribeTo", params: ["propertyName": "BasicCommunication.OnAppRegistered"]))
        #expect(last.last == .notification(method: "BasicCommunication.OnReady", params: [:]))
    }

    @Test("A refused registration (another HMI holds the component) is an error naming it")
    func registrationRefused() {
        var hmi = Self.hmi()
        _ = hmi.connected()
        #expect {
            try hmi.receive(.error(id: 2, code: -32000, message: "Controller has been already registered.", method: nil))
        } throws: { ($0 as? HMIError)?.code == .registrationRefused && "\($0)".contains("UI") }
    }

    @Test("Core's start-up requests are answered from the profile: IsReady, capabilities, languages, system info, vehicle type")
    func startUpAnswers() throws {
        var hmi = Self.hmi()
        _ = try Self.ready(&hmi)
        #expect(
            try hmi.receive(.request(id: 50, method: "VR.IsReady", params: [:]))
                == [.response(id: 50, result: ["available": true, "code": 0, "method": "VR.IsReady"])])
        let capabilities = try hmi.receive(.request(id: 51, method: "UI.GetCapabilities", params: [:]))
        guard case .response(51, let result)? = capabilities.first else { Issue.record("\(capabilities)"); return }
        #expect(result["displayCapabilities"] == SimulatorProfile.default.document["displayCapabilities"])
        #expect(result["hmiZoneCapabilities"] == "FRONT")
        #expect(result["audioPassThruCapabilities"]?["samplingRate"] != nil)
        let info = try hmi.receive(.request(id: 52, method: "BasicCommunication.GetSystemInfo", params: [:]))
        guard case .response(52, let system)? = info.first else { Issue.record("\(info)"); return }
        #expect(system["language"] == "EN-US" && system["ccpu_version"]?.stringValue != nil && system["wersCountryCode"] != nil)
        let languages = try hmi.receive(.request(id: 53, method: "TTS.GetSupportedLanguages", params: [:]))
        guard case .response(53, let supported)? = languages.first else { Issue.record("\(languages)"); return }
        #expect(supported["languages"]?.arrayValue?.count == SimulatorProfile.default.supportedLanguages.count)
        let vehicle = try hmi.receive(.request(id: 54, method: "VehicleInfo.GetVehicleType", params: [:]))
        guard case .response(54, let type)? = vehicle.first else { Issue.record("\(vehicle)"); return }
        #expect(type["vehicleType"]?["make"] == "SDL")
    }

    @Test("A registered app is activated with SDL.ActivateApp (auto-activate); Core's ActivateApp makes it FULL; unregistered, it is gone")
    func apps() throws {
        var hmi = Self.hmi(autoActivate: true)
        _ = try Self.ready(&hmi)
        let registered = HMIMessage.notification(
            method: "BasicCommunication.OnAppRegistered",
            params: ["application": ["appID": 65537, "appName": "Radio", "policyAppID": "radio-1"]]
        )
        // The app's displays first (``HMIDisplaysTests``), then the activation.
        let activation = try hmi.receive(registered).dropFirst()
        guard case .request(let id, "SDL.ActivateApp", let params)? = activation.first else { Issue.record("\(activation)"); return }
        #expect(params == ["appID": 65537])
        #expect(id > 1000, "requests use the id range Core gave")
        #expect(hmi.apps[65537]?.appName == "Radio" && hmi.apps[65537]?.hmiLevel == "NONE")
        // Core's answer to SDL.ActivateApp is the activation (a real Core 8.2 sends no BC.ActivateApp for it).
        _ = try hmi.receive(.response(id: id, result: ["code": 0, "method": "SDL.ActivateApp", "isSDLAllowed": true]))
        #expect(hmi.apps[65537]?.hmiLevel == "FULL")
        _ = try hmi.setHMILevel(appID: 65537, "BACKGROUND")
        #expect(hmi.apps[65537]?.hmiLevel == "BACKGROUND")
        #expect(
            try hmi.receive(.request(id: 60, method: "BasicCommunication.ActivateApp", params: ["appID": 65537]))
                == [.response(id: 60, result: ["code": 0, "method": "BasicCommunication.ActivateApp"])])
        #expect(hmi.apps[65537]?.hmiLevel == "FULL")
        _ = try hmi.receive(
            .request(id: 61, method: "UI.Show", params: ["appID": 65537, "showStrings": [["fieldName": "mainField1", "fieldText": "Hi"]]]))
        #expect(hmi.apps[65537]?.show["showStrings"]?.arrayValue?.count == 1)
        _ = try hmi.receive(
            .notification(method: "BasicCommunication.OnAppUnregistered", params: ["appID": 65537, "unexpectedDisconnect": false]))
        #expect(hmi.apps.isEmpty)
        #expect { try hmi.activate(appID: 65537) } throws: { ($0 as? HMIError)?.code == .unknownApp }
    }

    @Test("Vehicle data: subscriptions answer a VehicleDataResult per name; a read answers the latest sample or DATA_NOT_AVAILABLE")
    func vehicleData() throws {
        var answers = HMIAnswers(profile: .default)
        let (code, subscribed) = answers.answer(to: "VehicleInfo.SubscribeVehicleData", params: ["speed": true, "nonsense": true])
        #expect(code == .success)
        #expect(subscribed["speed"] == ["dataType": "VEHICLEDATA_SPEED", "resultCode": "SUCCESS"])
        #expect(subscribed["nonsense"]?["resultCode"] == "DATA_NOT_AVAILABLE")
        #expect(answers.answer(to: "VehicleInfo.GetVehicleData", params: ["speed": true]).0 == .dataNotAvailable)
        answers.vehicleData["speed"] = 42.5
        #expect(answers.answer(to: "VehicleInfo.GetVehicleData", params: ["speed": true, "appID": 1]).1 == ["speed": 42.5])
    }

    @Test("Vehicle samples go to Core as VehicleInfo.OnVehicleData with only the subscribed names, once ready; unsubscribed, no more")
    func vehicleNotifications() throws {
        var hmi = Self.hmi()
        #expect(hmi.vehicleSample(["speed": 10]).isEmpty, "nothing before the HMI is ready")
        _ = try Self.ready(&hmi)
        #expect(hmi.vehicleSample(["speed": 11]).isEmpty, "nothing before Core subscribes")
        _ = try hmi.receive(
            .request(id: 70, method: "VehicleInfo.SubscribeVehicleData", params: ["speed": true, "rpm": true, "appID": 65537]))
        #expect(
            hmi.vehicleSample(["speed": 12, "rpm": 900, "fuelLevel": 40])
                == [.notification(method: "VehicleInfo.OnVehicleData", params: ["speed": 12, "rpm": 900])])
        #expect(hmi.answers.answer(to: "VehicleInfo.GetVehicleData", params: ["fuelLevel": true]).1 == ["fuelLevel": 40])
        _ = try hmi.receive(.request(id: 71, method: "VehicleInfo.UnsubscribeVehicleData", params: ["speed": true, "rpm": true]))
        #expect(hmi.vehicleSample(["speed": 13]).isEmpty)
    }

    @Test("Disconnected, the HMI forgets the apps and registers afresh on the next connection")
    func reconnect() throws {
        var hmi = Self.hmi()
        _ = try Self.ready(&hmi)
        _ = try hmi.receive(
            .notification(method: "BasicCommunication.OnAppRegistered", params: ["application": ["appID": 7, "appName": "A"]]))
        hmi.disconnected()
        #expect(hmi.phase == .disconnected && hmi.apps.isEmpty)
        #expect(hmi.connected().count == HeadlessHMI.components.count)
    }
}
