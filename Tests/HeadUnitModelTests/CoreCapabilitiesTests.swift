import Foundation
import SDLProtocol
import Testing

@testable import HeadUnitModel

/// SDL Core's own `hmi_capabilities.json` loads as a profile, converted when read.
@Suite("Simulator profile: SDL Core's hmi_capabilities.json")
struct CoreCapabilitiesTests {
    /// A small file in Core's format (the sections and keys of Core 8.2.0's stock file), with
    /// values of a head unit unlike the built-in ones.
    static let coreFile = """
        {
          "UI": {
            "language": "DE-DE",
            "languages": ["DE-DE", "EN-US"],
            "displayCapabilities": {
              "displayType": "SDL_GENERIC",
              "displayName": "BENCH_DISPLAY",
              "textFields": [{"name": "mainField1", "characterSet": "UTF_8", "width": 20, "rows": 1}],
              "imageFields": [
                {"name": "softButtonImage", "imageResolution": {"resolutionWidth": 40, "resolutionHeight": 40}},
                {"name": "locationImage", "imageTypeSupported": ["GRAPHIC_PNG"], "imageResolution": {"resolutionWidth": 40, "resolutionHeight": 40}}
              ],
              "mediaClockFormats": ["CLOCK1"],
              "graphicSupported": true,
              "menuLayoutsAvailable": ["LIST"],
              "templatesAvailable": ["MEDIA", "NON-MEDIA"],
              "screenParams": {"resolution": {"resolutionWidth": 640, "resolutionHeight": 240},
                               "touchEventAvailable": {"pressAvailable": true, "multiTouchAvailable": false, "doublePressAvailable": false}},
              "numCustomPresetsAvailable": 4,
              "imageCapabilities": ["DYNAMIC"]
            },
            "audioPassThruCapabilities": [{"samplingRate": "22KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"}],
            "pcmStreamCapabilities": {"samplingRate": "22KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"},
            "hmiZoneCapabilities": "BACK",
            "hmiCapabilities": {"navigation": false, "phoneCall": true, "videoStreaming": false},
            "softButtonCapabilities": [{"shortPressAvailable": true, "longPressAvailable": false, "upDownAvailable": false, "imageSupported": false}],
            "systemCapabilities": {
              "navigationCapability": {"sendLocationEnabled": false, "getWayPointsEnabled": false},
              "phoneCapability": {"dialNumberEnabled": true},
              "driverDistractionCapability": {"menuLength": 4, "subMenuDepth": 1}
            }
          },
          "RC": {"remoteControlCapability": {}, "seatLocationCapability": {}},
          "VR": {"vrCapabilities": ["TEXT"], "language": "DE-DE", "languages": ["DE-DE"]},
          "TTS": {"speechCapabilities": ["TEXT", "SILENCE"], "prerecordedSpeechCapabilities": ["POSITIVE_JINGLE"], "language": "DE-DE", "languages": ["DE-DE"]},
          "Buttons": {
            "capabilities": [{"name": "OK", "shortPressAvailable": true, "longPressAvailable": false, "upDownAvailable": true}],
            "presetBankCapabilities": {"onScreenPresetsAvailable": false}
          },
          "VehicleInfo": {"vehicleType": {"make": "Bench", "model": "Rig", "modelYear": "2026", "trim": "LX"}},
          "SyncMessageVersion": {"majorVersion": 3, "minorVersion": 0}
        }
        """

    @Test("Core's file loads as it is: every key it converts lands where a profile has it")
    func converted() throws {
        let profile = try SimulatorProfile(json: Array(Self.coreFile.utf8))
        let document = profile.document
        #expect(profile.language == "DE-DE" && profile.hmiDisplayLanguage == "DE-DE")
        #expect(profile.supportedLanguages == ["DE-DE", "EN-US"])
        let display = try #require(document["displayCapabilities"])
        #expect(display["displayName"] == "BENCH_DISPLAY")
        #expect(display["imageCapabilities"] == nil && display["menuLayoutsAvailable"] == nil)
        #expect(display["imageFields"]?.arrayValue?.first?["imageTypeSupported"] == ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"])
        #expect(display["imageFields"]?.arrayValue?.last?["imageTypeSupported"] == ["GRAPHIC_PNG"])
        #expect(document["displays"]?["mainWindow"] == ["imageTypeSupported": ["DYNAMIC"], "menuLayoutsAvailable": ["LIST"]])
        #expect(profile.maximumLength(ofTextField: "mainField1") == 20)
        #expect(document["buttonCapabilities"]?.arrayValue?.first?["name"] == "OK")
        #expect(document["presetBankCapabilities"] == ["onScreenPresetsAvailable": false])
        #expect(document["softButtonCapabilities"]?.arrayValue?.first?["imageSupported"] == false)
        #expect(document["hmiZoneCapabilities"] == ["BACK"])
        #expect(document["speechCapabilities"] == ["TEXT", "SILENCE"])
        #expect(document["prerecordedSpeech"] == ["POSITIVE_JINGLE"])
        #expect(document["vrCapabilities"] == ["TEXT"])
        #expect(document["audioPassThruCapabilities"]?.arrayValue?.first?["samplingRate"] == "22KHZ")
        #expect(document["pcmStreamCapabilities"]?["samplingRate"] == "22KHZ")
        // Core's three over the base profile's others.
        let hmi = try #require(document["hmiCapabilities"]?.objectValue)
        #expect(hmi["navigation"] == false && hmi["phoneCall"] == true && hmi["videoStreaming"] == false)
        let baseKeys = Set(SimulatorProfile.full.document["hmiCapabilities"]?.objectValue.map { Array($0.keys) } ?? [])
        #expect(!baseKeys.isEmpty && Set(hmi.keys).isSuperset(of: baseKeys))
        #expect(
            profile.systemCapability("NAVIGATION")?["navigationCapability"] == ["sendLocationEnabled": false, "getWayPointsEnabled": false])
        #expect(profile.systemCapability("PHONE_CALL")?["phoneCapability"] == ["dialNumberEnabled": true])
        #expect(profile.systemCapability("DRIVER_DISTRACTION")?["driverDistractionCapability"] == ["menuLength": 4, "subMenuDepth": 1])
        #expect(profile.systemCapability("VIDEO_STREAMING") == nil)
        for type in ["REMOTE_CONTROL", "SEAT_LOCATION", "APP_SERVICES"] {
            #expect(profile.systemCapability(type) == SimulatorProfile.full.systemCapability(type), "\(type) from the base profile")
        }
        #expect(profile.systemCapability("DISPLAYS")?["displayCapabilities"]?.arrayValue?.first?["displayName"] == "BENCH_DISPLAY")
        #expect(profile.startServiceVehicleInfo.make == "Bench" && profile.startServiceVehicleInfo.trim == "LX")
        // What Core's file does not hold comes from the base profile, not from SyncMessageVersion.
        #expect(profile.syncMsgVersion == SimulatorProfile.full.syncMsgVersion)
        #expect(document["sdlVersion"] == SimulatorProfile.full.document["sdlVersion"])
        #expect(profile.appDirectoryQuota == SimulatorProfile.full.appDirectoryQuota)
    }

    @Test("A file in neither format, or a broken one of Core's, is refused naming the place and both formats")
    func refused() {
        #expect {
            try SimulatorProfile(json: Array(#"{"language": "EN-US", "Buttons": {}}"#.utf8))
        } throws: { error in
            let text = "\(error)"
            return text.contains("$.Buttons") && text.contains("head-unit profile") && text.contains("hmi_capabilities.json")
        }
        #expect {
            try SimulatorProfile(json: Array(#"{"Buttons": {"capabilities": []}}"#.utf8))
        } throws: { "\($0)".contains("$.UI.language") }
        #expect {
            try SimulatorProfile(json: Array(#"{"UI": {"language": "EN-US"}, "Radio": {}}"#.utf8))
        } throws: { error in
            let text = "\(error)"
            return text.contains("$.Radio") && text.contains("head-unit profile") && text.contains("UI, VR, TTS")
        }
        // A value that would make a message invalid is named by its place in Core's file.
        let wide = Self.coreFile.replacingOccurrences(of: #""width": 20"#, with: #""width": "wide""#)
        #expect {
            try SimulatorProfile(json: Array(wide.utf8))
        } throws: { error in
            let text = "\(error)"
            return text.contains("$.UI.displayCapabilities.textFields[0].width") && text.contains("in SDL Core's hmi_capabilities.json")
        }
    }

    @Test(
        "Core 8.2.0's stock file converts to exactly the built-in core-8.2 profile (SDL_CORE_HMI_CAPABILITIES names the file)",
        .enabled(if: ProcessInfo.processInfo.environment["SDL_CORE_HMI_CAPABILITIES"] != nil, "SDL_CORE_HMI_CAPABILITIES names no file")
    )
    func stockFile() throws {
        let path = try #require(ProcessInfo.processInfo.environment["SDL_CORE_HMI_CAPABILITIES"])
        let profile = try SimulatorProfile(contentsOfFile: path)
        #expect(profile.document == SimulatorProfile.default.document)
        #expect(profile == SimulatorProfile.default)
    }
}
