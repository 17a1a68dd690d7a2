import SDLProtocol

/// SDL Core's own capabilities file, `hmi_capabilities.json` (Core 8.2.0's
/// `src/appMain/hmi_capabilities.json`, installed beside `smartDeviceLinkCore`), read as a
/// head-unit profile: what Core would have sent apps from it (docs/protocol.md §k).
///
/// Core's file holds the answers of its HMI's GetCapabilities requests, by HMI interface
/// (HMI_API.xml shapes). The conversion takes:
///
/// | profile key | from Core's file |
/// |---|---|
/// | `language`, `hmiDisplayLanguage`, `supportedLanguages` | `UI.language` (**required**), `UI.languages` |
/// | `displayCapabilities` | `UI.displayCapabilities` without `imageCapabilities` and `menuLayoutsAvailable`; an image field without `imageTypeSupported` (mandatory in MOBILE_API.xml) gets Core's three graphic types |
/// | `displays.mainWindow` | `imageTypeSupported` from `UI.displayCapabilities.imageCapabilities`, `menuLayoutsAvailable` from the same |
/// | `buttonCapabilities`, `presetBankCapabilities` | `Buttons.capabilities`, `Buttons.presetBankCapabilities` |
/// | `softButtonCapabilities`, `audioPassThruCapabilities`, `pcmStreamCapabilities` | the same keys of `UI` |
/// | `hmiZoneCapabilities` | `UI.hmiZoneCapabilities`, one value made an array |
/// | `hmiCapabilities` | `UI.hmiCapabilities` over the base profile's (Core adds the rest) |
/// | `speechCapabilities`, `prerecordedSpeech` | `TTS.speechCapabilities`, `TTS.prerecordedSpeechCapabilities` |
/// | `vrCapabilities` | `VR.vrCapabilities` |
/// | `systemCapabilities` | `NAVIGATION`, `PHONE_CALL`, `VIDEO_STREAMING`, `DRIVER_DISTRACTION` from `UI.systemCapabilities`; `REMOTE_CONTROL`, `SEAT_LOCATION`, `APP_SERVICES` from the base profile (Core's `RC` section is in the HMI API's shape) |
/// | `vehicleType` | `VehicleInfo.vehicleType`, else the base profile's |
/// | `syncMsgVersion`, `sdlVersion`, `systemSoftwareVersion`, `supportedDiagModes`, `appDirectoryQuota` | the base profile's (Core's file does not hold them) |
///
/// The base is the built-in `full` profile. Converted with it, Core 8.2.0's stock file gives
/// exactly the built-in `core-8.2` profile (what Core 8.2 was seen sending apps).
extension SimulatorProfile {
    /// The top-level sections of Core's `hmi_capabilities.json`.
    public static let coreCapabilitiesSections: [String] = ["UI", "VR", "TTS", "Buttons", "VehicleInfo", "RC", "SyncMessageVersion"]

    /// Core's graphic types, for image fields that list none.
    static let coreGraphicTypes: SDLJSON = ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"]

    /// What an unknown key's error says is accepted.
    static var acceptedFormats: String {
        "Two formats are accepted: a head-unit profile (keys language, hmiDisplayLanguage, syncMsgVersion, displayCapabilities, …; "
            + "the format of `sdl-gateway simulate --profile`) or SDL Core's hmi_capabilities.json (sections "
            + "\(coreCapabilitiesSections.joined(separator: ", ")))"
    }

    /// Whether `document` is Core's format: it has one of Core's sections and no key of a profile.
    static func isCoreCapabilities(_ document: [String: SDLJSON]) -> Bool {
        document.keys.contains(where: coreCapabilitiesSections.contains) && !document.keys.contains(where: profileKeys.contains)
    }

    /// The profile object for Core's `hmi_capabilities.json` (table above); `base` gives what
    /// Core's file does not hold.
    public static func profileDocument(
        fromCoreCapabilities core: [String: SDLJSON], base: SimulatorProfile = .full
    ) throws(SimulatorProfileError) -> [String: SDLJSON] {
        for key in core.keys.sorted() where !coreCapabilitiesSections.contains(key) {
            throw SimulatorProfileError(
                kind: .invalidProfile, path: "$.\(key)", message: "unknown section of SDL Core's hmi_capabilities.json. \(acceptedFormats)")
        }
        func section(_ name: String) throws(SimulatorProfileError) -> [String: SDLJSON] {
            guard let value = core[name] else { return [:] }
            guard let members = value.objectValue else {
                throw SimulatorProfileError(kind: .invalidProfile, path: "$.\(name)", message: "expected an object, got \(value.typeName)")
            }
            return members
        }
        let ui = try section("UI"), tts = try section("TTS"), vr = try section("VR"), buttons = try section("Buttons")
        let vehicleInfo = try section("VehicleInfo")
        guard let language = ui["language"] else {
            throw SimulatorProfileError(kind: .invalidProfile, path: "$.UI.language", message: "missing (a Language such as \"EN-US\")")
        }
        let baseDocument = base.document
        var profile: [String: SDLJSON] = ["language": language, "hmiDisplayLanguage": language]
        profile["supportedLanguages"] = ui["languages"]

        if let value = ui["displayCapabilities"] {
            guard var display = value.objectValue else {
                throw SimulatorProfileError(
                    kind: .invalidProfile, path: "$.UI.displayCapabilities", message: "expected an object, got \(value.typeName)")
            }
            var mainWindow: [String: SDLJSON] = [:]
            if let types = display.removeValue(forKey: "imageCapabilities"), types != [] { mainWindow["imageTypeSupported"] = types }
            if let layouts = display.removeValue(forKey: "menuLayoutsAvailable"), layouts != [] {
                mainWindow["menuLayoutsAvailable"] = layouts
            }
            if let fields = display["imageFields"]?.arrayValue {
                display["imageFields"] = .array(
                    fields.map { field in
                        guard case .object(var members) = field, members["imageTypeSupported"] == nil else { return field }
                        members["imageTypeSupported"] = coreGraphicTypes
                        return .object(members)
                    })
            }
            profile["displayCapabilities"] = .object(display)
            profile["displays"] = [
                "windowTypeSupported": [["type": "MAIN", "maximumNumberOfWindows": 1]], "mainWindow": .object(mainWindow),
            ]
        }
        profile["buttonCapabilities"] = buttons["capabilities"]
        profile["presetBankCapabilities"] = buttons["presetBankCapabilities"]
        for key in ["softButtonCapabilities", "audioPassThruCapabilities", "pcmStreamCapabilities"] {
            profile[key] = ui[key]
        }
        if let zone = ui["hmiZoneCapabilities"] {
            profile["hmiZoneCapabilities"] = zone.arrayValue != nil ? zone : [zone]
        }
        profile["speechCapabilities"] = tts["speechCapabilities"]
        profile["prerecordedSpeech"] = tts["prerecordedSpeechCapabilities"]
        profile["vrCapabilities"] = vr["vrCapabilities"]
        // The file's navigation, phoneCall and videoStreaming; Core adds the others (seen on the wire).
        var hmiCapabilities = baseDocument["hmiCapabilities"]?.objectValue ?? [:]
        hmiCapabilities.merge(ui["hmiCapabilities"]?.objectValue ?? [:]) { $1 }
        profile["hmiCapabilities"] = .object(hmiCapabilities)

        var system: [String: SDLJSON] = [:]
        let uiSystem = ui["systemCapabilities"]?.objectValue ?? [:]
        for (member, type) in [
            ("navigationCapability", "NAVIGATION"), ("phoneCapability", "PHONE_CALL"),
            ("videoStreamingCapability", "VIDEO_STREAMING"), ("driverDistractionCapability", "DRIVER_DISTRACTION"),
        ] {
            system[type] = uiSystem[member]
        }
        for type in ["REMOTE_CONTROL", "SEAT_LOCATION", "APP_SERVICES"] {
            system[type] = baseDocument["systemCapabilities"]?[type]
        }
        profile["systemCapabilities"] = .object(system)
        profile["vehicleType"] = vehicleInfo["vehicleType"] ?? baseDocument["vehicleType"]
        for key in ["sdlVersion", "syncMsgVersion", "systemSoftwareVersion", "supportedDiagModes", "appDirectoryQuota"] {
            profile[key] = baseDocument[key]
        }
        return profile.filter { $0.value != .null }
    }

    /// Where a key of the converted profile came from in Core's file.
    static let coreCapabilitiesPaths: [(profile: String, core: String)] = [
        ("$.supportedLanguages", "$.UI.languages"), ("$.hmiDisplayLanguage", "$.UI.language"), ("$.language", "$.UI.language"),
        ("$.displayCapabilities", "$.UI.displayCapabilities"), ("$.displays", "$.UI.displayCapabilities"),
        ("$.buttonCapabilities", "$.Buttons.capabilities"), ("$.presetBankCapabilities", "$.Buttons.presetBankCapabilities"),
        ("$.softButtonCapabilities", "$.UI.softButtonCapabilities"), ("$.audioPassThruCapabilities", "$.UI.audioPassThruCapabilities"),
        ("$.pcmStreamCapabilities", "$.UI.pcmStreamCapabilities"), ("$.hmiZoneCapabilities", "$.UI.hmiZoneCapabilities"),
        ("$.hmiCapabilities", "$.UI.hmiCapabilities"), ("$.speechCapabilities", "$.TTS.speechCapabilities"),
        ("$.prerecordedSpeech", "$.TTS.prerecordedSpeechCapabilities"), ("$.vrCapabilities", "$.VR.vrCapabilities"),
        ("$.systemCapabilities.NAVIGATION", "$.UI.systemCapabilities.navigationCapability"),
        ("$.systemCapabilities.PHONE_CALL", "$.UI.systemCapabilities.phoneCapability"),
        ("$.systemCapabilities.VIDEO_STREAMING", "$.UI.systemCapabilities.videoStreamingCapability"),
        ("$.systemCapabilities.DRIVER_DISTRACTION", "$.UI.systemCapabilities.driverDistractionCapability"),
        ("$.vehicleType", "$.VehicleInfo.vehicleType"),
    ]
}

extension SimulatorProfileError {
    /// The error of a profile converted from Core's file, its path in Core's file where it has one.
    func inCoreCapabilities() -> SimulatorProfileError {
        var error = self
        let path = self.path
        let match = SimulatorProfile.coreCapabilitiesPaths.first { entry in
            path.hasPrefix(entry.profile) && (path.dropFirst(entry.profile.count).first.map { $0 == "." || $0 == "[" } ?? true)
        }
        if let match {
            error.path = match.core + path.dropFirst(match.profile.count)
        }
        error.message = "\(message) (in SDL Core's hmi_capabilities.json)"
        return error
    }
}
