import Foundation
import HeadUnitModel
import SDLProtocol
import SDLSpec
import Testing

@Suite("Simulator profile")
struct ProfileTests {
    let catalog = SDLCatalog.builtIn
    let profile = SimulatorProfile.default

    /// `document` with `key` set to `value` (or removed when `nil`), as profile JSON bytes.
    static func edited(_ edits: [String: SDLJSON?]) -> [UInt8] {
        guard case .object(var document) = try! SDLJSON.parse(SimulatorProfile.defaultJSON) else { fatalError() }
        for (key, value) in edits { document[key] = value }
        return SDLJSON.object(document).serializedBytes()
    }

    static func loadError(_ bytes: [UInt8]) -> SimulatorProfileError? {
        do {
            _ = try SimulatorProfile(json: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("The default RegisterAppInterface response validates and carries every key Core 8.2 sends")
    func defaultRegistrationResponse() throws {
        let response = profile.registerAppInterfaceResponse()
        let issues = try catalog.validate(response, function: "RegisterAppInterface", messageType: .response)
        #expect(issues.isEmpty, "\(issues)")
        #expect(response["success"] == true)
        #expect(response["resultCode"] == "SUCCESS")
        let coreKeys = [
            "success", "resultCode", "language", "hmiDisplayLanguage", "syncMsgVersion", "sdlVersion", "vehicleType",
            "displayCapabilities", "buttonCapabilities", "softButtonCapabilities", "presetBankCapabilities",
            "hmiZoneCapabilities", "speechCapabilities", "prerecordedSpeech", "vrCapabilities",
            "audioPassThruCapabilities", "pcmStreamCapabilities", "hmiCapabilities", "systemSoftwareVersion", "iconResumed",
        ]
        for key in coreKeys {
            #expect(response[key] != nil, "missing \(key)")
        }
        #expect(response["vehicleType"] == ["make": "SDL", "model": "Generic", "modelYear": "2019", "trim": "SE"])
        #expect(response["systemSoftwareVersion"] == "12345_US")
        #expect(response["syncMsgVersion"] == ["majorVersion": 8, "minorVersion": 0, "patchVersion": 0])
        #expect(response["language"] == "EN-US")
        #expect(response["hmiDisplayLanguage"] == "EN-US")
        #expect(response["hmiZoneCapabilities"] == ["FRONT"])
        // Core 8.2's stock hmi_capabilities.json, as a real Core sent it.
        #expect(response["audioPassThruCapabilities"] == [["samplingRate": "44KHZ", "bitsPerSample": "8_BIT", "audioType": "PCM"]])
        // Core sends it as one frame of about 9.6 KB; ours is of the same order.
        #expect(response.serializedBytes().count < 131_072)
    }

    @Test("The default display has the text fields, templates and buttons of a generic touchscreen")
    func defaultDisplay() throws {
        let display = try #require(profile.registerAppInterfaceResponse()["displayCapabilities"])
        for name in [
            "mainField1", "mainField2", "mainField3", "mainField4", "statusBar", "mediaClock", "mediaTrack", "alertText1",
            "alertText2", "alertText3", "scrollableMessageBody", "initialInteractionText", "sliderHeader", "sliderFooter",
            "menuName", "secondaryText", "tertiaryText", "menuTitle",
        ] {
            #expect(profile.textFieldWidths[name] != nil, "no text field \(name)")
        }
        for field in display["textFields"]?.arrayValue ?? [] {
            #expect(field["characterSet"] == "UTF_8")
        }
        #expect(profile.maximumLength(ofTextField: "mainField1") == 500)
        #expect(profile.maximumLength(ofTextField: "mainField4") == 500)
        #expect(profile.maximumLength(ofTextField: "noSuchField") == nil)
        // Core's stock file has 30 text fields, without templateTitle (the `full` profile has it).
        #expect(profile.textFieldWidths["templateTitle"] == nil)
        #expect(SimulatorProfile.full.textFieldWidths["templateTitle"] != nil)
        let templates = display["templatesAvailable"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for template in ["DEFAULT", "MEDIA", "NON-MEDIA", "GRAPHIC_WITH_TEXT", "TILES_ONLY", "TEXT_WITH_GRAPHIC"] {
            #expect(templates.contains(template))
        }
        #expect(display["graphicSupported"] == true)
        #expect(display["numCustomPresetsAvailable"] != nil)
        let buttons = profile.registerAppInterfaceResponse()["buttonCapabilities"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        let expected =
            ["OK", "PLAY_PAUSE", "SEEKLEFT", "SEEKRIGHT", "TUNEUP", "TUNEDOWN", "CUSTOM_BUTTON"] + (0...9).map { "PRESET_\($0)" }
        #expect(Set(buttons) == Set(expected))
    }

    @Test("Vehicle strings, quota and languages")
    func vehicleQuotaLanguages() {
        #expect(
            profile.startServiceVehicleInfo
                == SimulatorProfile.VehicleInfo(
                    make: "SDL", model: "Generic", modelYear: "2019", trim: "SE", systemSoftwareVersion: "12345_US"))
        #expect(profile.appDirectoryQuota == 104_857_600)
        #expect(profile.language == "EN-US")
        #expect(profile.hmiDisplayLanguage == "EN-US")
        #expect(profile.supportedLanguages.contains("EN-US"))
        #expect(profile.supportedLanguages.contains("DE-DE"))
        #expect(Set(profile.supportedLanguages).count == profile.supportedLanguages.count)
    }

    @Test(
        "Every system capability type validates as a GetSystemCapability response",
        arguments: [
            "NAVIGATION", "PHONE_CALL", "VIDEO_STREAMING", "REMOTE_CONTROL", "APP_SERVICES", "SEAT_LOCATION", "DISPLAYS",
            "DRIVER_DISTRACTION",
        ])
    func systemCapability(type: String) throws {
        let capability = try #require(profile.systemCapability(type))
        #expect(capability["systemCapabilityType"] == .string(type))
        let member = try #require(SimulatorProfile.systemCapabilityMembers[type])
        #expect(capability[member] != nil)
        let response: SDLJSON = ["success": true, "resultCode": "SUCCESS", "systemCapability": capability]
        let issues = try catalog.validate(response, function: "GetSystemCapability", messageType: .response)
        #expect(issues.isEmpty, "\(issues)")
    }

    @Test("DISPLAYS is built from the display, button and soft button capabilities")
    func derivedDisplays() throws {
        #expect(profile.systemCapabilityTypes.count == 8)
        #expect(profile.systemCapability("NO_SUCH_TYPE") == nil)
        let displays = try #require(profile.systemCapability("DISPLAYS")?["displayCapabilities"]?.arrayValue)
        #expect(displays.count == 1)
        let window = try #require(displays[0]["windowCapabilities"]?.arrayValue?.first)
        let legacy = try #require(profile.document["displayCapabilities"])
        #expect(window["windowID"] == 0)
        #expect(window["textFields"] == legacy["textFields"])
        #expect(window["templatesAvailable"] == legacy["templatesAvailable"])
        #expect(window["buttonCapabilities"] == profile.document["buttonCapabilities"])
        // Core's imageCapabilities and menuLayoutsAvailable belong to the window.
        #expect(window["imageTypeSupported"] == ["DYNAMIC", "STATIC"])
        #expect(window["menuLayoutsAvailable"] == ["LIST", "TILES"])
        #expect(displays[0]["displayName"] == legacy["displayName"])
        // The full profile adds widgets and keyboards.
        let full = try #require(SimulatorProfile.full.systemCapability("DISPLAYS")?["displayCapabilities"]?.arrayValue?.first)
        #expect(full["windowCapabilities"]?.arrayValue?.first?["keyboardCapabilities"] != nil)
        #expect(full["windowTypeSupported"]?.arrayValue?.count == 2)
    }

    @Test("Failed registrations carry only success, resultCode and info")
    func failedRegistration() throws {
        let response = profile.registerAppInterfaceResponse(resultCode: "DUPLICATE_NAME", info: "name in use")
        #expect(response == ["success": false, "resultCode": "DUPLICATE_NAME", "info": "name in use"])
        #expect(try catalog.validate(response, function: "RegisterAppInterface", messageType: .response).isEmpty)
        for code in ["WRONG_LANGUAGE", "RESUME_FAILED", "WARNINGS"] {
            let registered = profile.registerAppInterfaceResponse(resultCode: code)
            #expect(registered["success"] == true)
            #expect(registered["displayCapabilities"] != nil)
            #expect(try catalog.validate(registered, function: "RegisterAppInterface", messageType: .response).isEmpty)
        }
    }

    @Test("Languages, icon and the negotiated SyncMsgVersion")
    func registrationOptions() throws {
        let response = profile.registerAppInterfaceResponse(
            language: "DE-DE", hmiDisplayLanguage: "FR-FR",
            appSyncMsgVersion: ["majorVersion": 5, "minorVersion": 1], iconResumed: true
        )
        #expect(response["language"] == "DE-DE")
        #expect(response["hmiDisplayLanguage"] == "FR-FR")
        #expect(response["syncMsgVersion"] == ["majorVersion": 5, "minorVersion": 1])
        #expect(response["iconResumed"] == true)
        let newer = profile.registerAppInterfaceResponse(appSyncMsgVersion: ["majorVersion": 9, "minorVersion": 0, "patchVersion": 0])
        #expect(newer["syncMsgVersion"] == ["majorVersion": 8, "minorVersion": 0, "patchVersion": 0])
        #expect(try catalog.validate(response, function: "RegisterAppInterface", messageType: .response).isEmpty)
    }

    @Test("A replaced profile changes the response")
    func replacedProfile() throws {
        let bytes = Self.edited([
            "vehicleType": ["make": "Ford", "model": "Mustang Mach-E", "modelYear": "2024", "trim": "GT"],
            "systemSoftwareVersion": "SYNC 4A",
            "language": "DE-DE",
            "hmiDisplayLanguage": "DE-DE",
            "supportedLanguages": nil,
            "appDirectoryQuota": 1_000_000,
            "displayCapabilities": [
                "displayType": "SDL_GENERIC",
                "textFields": [["name": "mainField1", "characterSet": "UTF_8", "width": 40, "rows": 1]],
                "mediaClockFormats": [],
                "graphicSupported": false,
            ],
            "systemCapabilities": ["PHONE_CALL": ["dialNumberEnabled": false]],
            "displays": nil,
        ])
        let replaced = try SimulatorProfile(json: Data(bytes))
        let response = replaced.registerAppInterfaceResponse()
        #expect(try catalog.validate(response, function: "RegisterAppInterface", messageType: .response).isEmpty)
        #expect(response["vehicleType"]?["make"] == "Ford")
        #expect(response["systemSoftwareVersion"] == "SYNC 4A")
        #expect(response["language"] == "DE-DE")
        #expect(response["displayCapabilities"]?["graphicSupported"] == false)
        #expect(replaced.startServiceVehicleInfo.model == "Mustang Mach-E")
        #expect(replaced.startServiceVehicleInfo.systemSoftwareVersion == "SYNC 4A")
        #expect(replaced.appDirectoryQuota == 1_000_000)
        #expect(replaced.supportedLanguages == ["DE-DE"])
        #expect(replaced.maximumLength(ofTextField: "mainField1") == 40)
        #expect(replaced.maximumLength(ofTextField: "mainField2") == nil)
        #expect(replaced.systemCapability("PHONE_CALL")?["phoneCapability"] == ["dialNumberEnabled": false])
        #expect(replaced.systemCapability("NAVIGATION") == nil)
        #expect(replaced.systemCapabilityTypes == ["DISPLAYS", "PHONE_CALL"])
        #expect(replaced != SimulatorProfile.default)
    }

    @Test("A minimal profile: languages and version only")
    func minimalProfile() throws {
        let minimal = try SimulatorProfile(
            json: Data(#"{"language":"EN-GB","hmiDisplayLanguage":"EN-GB","syncMsgVersion":{"majorVersion":7,"minorVersion":1}}"#.utf8))
        let response = minimal.registerAppInterfaceResponse()
        #expect(
            Set(response.objectValue.map { Array($0.keys) } ?? []) == [
                "success", "resultCode", "language", "hmiDisplayLanguage", "syncMsgVersion", "iconResumed",
            ])
        #expect(try catalog.validate(response, function: "RegisterAppInterface", messageType: .response).isEmpty)
        #expect(minimal.appDirectoryQuota == SimulatorProfile.defaultAppDirectoryQuota)
        #expect(minimal.startServiceVehicleInfo == SimulatorProfile.VehicleInfo())
        #expect(minimal.systemCapabilityTypes.isEmpty)
        #expect(minimal.textFieldWidths.isEmpty)
    }

    @Test("The built-in JSON round-trips through a file")
    func loadFromFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString).json")
        try Data(SimulatorProfile.defaultJSON.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try SimulatorProfile(contentsOfFile: url.path) == SimulatorProfile.default)
        let missing = #expect(throws: SimulatorProfileError.self) {
            try SimulatorProfile(contentsOfFile: url.path + ".missing")
        }
        #expect(missing?.kind == .unreadable)
        let tooBig = #expect(throws: SimulatorProfileError.self) {
            try SimulatorProfile(contentsOfFile: url.path, maximumFileSize: 100)
        }
        #expect(tooBig?.kind == .unreadable)
    }

    @Test(
        "Loading errors name the kind and the JSON path",
        arguments: [
            BadProfile(text: #"{"language": "#, .malformedJSON, "$"),
            BadProfile(text: "[1, 2]", .invalidProfile, "$"),
            BadProfile(["language": nil], .invalidProfile, "$.language"),
            BadProfile(["language": "KLINGON"], .invalidProfile, "$.language"),
            BadProfile(["hmiDisplayLanguage": 7], .invalidProfile, "$.hmiDisplayLanguage"),
            BadProfile(["syncMsgVersion": nil], .invalidProfile, "$.syncMsgVersion"),
            BadProfile(["colour": "red"], .invalidProfile, "$.colour"),
            BadProfile(["appDirectoryQuota": -1], .invalidProfile, "$.appDirectoryQuota"),
            BadProfile(["appDirectoryQuota": "lots"], .invalidProfile, "$.appDirectoryQuota"),
            BadProfile(["supportedLanguages": ["DE-DE"]], .invalidProfile, "$.supportedLanguages"),
            BadProfile(["supportedLanguages": ["EN-US", "XX-XX"]], .invalidProfile, "$.supportedLanguages[1]"),
            BadProfile(["systemCapabilities": ["TELEPORT": [:]]], .invalidProfile, "$.systemCapabilities.TELEPORT"),
            BadProfile(["systemCapabilities": []], .invalidProfile, "$.systemCapabilities"),
            BadProfile(["displays": ["colour": "red"]], .invalidProfile, "$.displays.colour"),
            BadProfile(["syncMsgVersion": ["majorVersion": 99, "minorVersion": 0]], .invalidCapabilities, "$.syncMsgVersion.majorVersion"),
            BadProfile(["vehicleType": ["make": 3]], .invalidCapabilities, "$.vehicleType.make"),
            BadProfile(["hmiZoneCapabilities": ["MIDDLE"]], .invalidCapabilities, "$.hmiZoneCapabilities[0]"),
            BadProfile(["speechCapabilities": []], .invalidCapabilities, "$.speechCapabilities"),
            BadProfile(
                ["systemCapabilities": ["NAVIGATION": ["sendLocationEnabled": "yes"]]], .invalidCapabilities,
                "$.systemCapabilities.NAVIGATION.sendLocationEnabled"),
        ])
    func loadingErrors(bad: BadProfile) {
        let error = Self.loadError(bad.bytes)
        #expect(error?.kind == bad.kind, "\(String(describing: error))")
        #expect(error?.path == bad.path, "\(String(describing: error))")
        #expect(error.map { !$0.description.isEmpty && !$0.message.isEmpty } == true)
    }

    @Test("A text field too wide for TextField is reported where it is")
    func textFieldWidthError() throws {
        guard case .object(var display) = try #require(SimulatorProfile.default.document["displayCapabilities"]) else { return }
        display["textFields"] = [["name": "mainField1", "characterSet": "UTF_8", "width": 501, "rows": 1]]
        let error = Self.loadError(Self.edited(["displayCapabilities": .object(display)]))
        #expect(error?.kind == .invalidCapabilities)
        #expect(error?.path == "$.displayCapabilities.textFields[0].width")
    }
}

/// A broken profile for the loading error tests: the default with some keys replaced, or a text.
struct BadProfile: Sendable, CustomTestStringConvertible {
    let label: String
    let bytes: [UInt8]
    let kind: SimulatorProfileError.Kind
    let path: String

    init(_ edits: [String: SDLJSON?], _ kind: SimulatorProfileError.Kind, _ path: String) {
        label = edits.map { "\($0.key) = \($0.value.map(\.description) ?? "(removed)")" }.sorted().joined(separator: ", ")
        bytes = ProfileTests.edited(edits)
        self.kind = kind
        self.path = path
    }

    init(text: String, _ kind: SimulatorProfileError.Kind, _ path: String) {
        label = text
        bytes = Array(text.utf8)
        self.kind = kind
        self.path = path
    }

    var testDescription: String { "\(label) → \(kind) at \(path)" }
}
