import Foundation
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitModel

/// The built-in profiles, embedded from `Resources/`: `core-8.2` (the default) as SDL Core 8.2
/// sends its stock capabilities, `full` as the simulator had before; a missing or broken file is
/// a clear error.
@Suite("Simulator profile: the built-in resource")
struct ProfileResourceTests {
    @Test("The resource holds exactly the text of the built-in profile")
    func sameText() {
        // CRC-32 of Resources/default-profile.json; change it together with the file when the
        // built-in profile is edited on purpose (last: its VIDEO_STREAMING's preferredResolution
        // became the screen below the HMI's header, 800×300; before, the 800×480 H.264 RAW/RTP
        // projection screen; before, rebuilt from Core 8.2's stock hmi_capabilities.json;
        // CoreCapabilitiesTests checks the conversion gives it).
        let text = SimulatorProfile.defaultJSON.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(SDLCRC32.checksum(text) == 0x2518_CF3C)
        #expect(text.utf8.count == 20_652)
    }

    @Test("core-8.2, the default: what SDL Core 8.2.0 sends apps from its stock hmi_capabilities.json")
    func keyCapabilities() throws {
        let profile = try SimulatorProfile.loadDefault()
        #expect(profile == SimulatorProfile.default)
        #expect(profile == SimulatorProfile.named("core-8.2"))
        #expect(profile == (try SimulatorProfile(json: Array(SimulatorProfile.defaultJSON.utf8))))

        let response = profile.registerAppInterfaceResponse()
        let display = try #require(response["displayCapabilities"])
        #expect(display["displayType"] == "SDL_GENERIC")
        #expect(display["displayName"] == "GENERIC_DISPLAY")
        #expect(display["textFields"]?.arrayValue?.count == 30)
        #expect(display["imageFields"]?.arrayValue?.count == 12)
        #expect(display["screenParams"]?["resolution"] == ["resolutionWidth": 800, "resolutionHeight": 350])
        #expect(display["numCustomPresetsAvailable"] == 8)
        let buttons = response["buttonCapabilities"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(
            buttons == (0...9).map { "PRESET_\($0)" } + [
                "OK", "PLAY_PAUSE", "SEEKLEFT", "SEEKRIGHT", "TUNEUP", "TUNEDOWN", "CUSTOM_BUTTON",
            ])
        #expect(
            response["softButtonCapabilities"] == [
                ["shortPressAvailable": true, "longPressAvailable": true, "upDownAvailable": true, "imageSupported": true]
            ])
        #expect(response["vehicleType"] == ["make": "SDL", "model": "Generic", "modelYear": "2019", "trim": "SE"])
        #expect(response["syncMsgVersion"] == ["majorVersion": 8, "minorVersion": 0, "patchVersion": 0])
        #expect(response["sdlVersion"] == "8.2.0")
        #expect(response["systemSoftwareVersion"] == "12345_US")
        #expect(response["speechCapabilities"] == ["TEXT"])
        #expect(response["prerecordedSpeech"] == ["HELP_JINGLE"])
        #expect(response["audioPassThruCapabilities"] == [["samplingRate": "44KHZ", "bitsPerSample": "8_BIT", "audioType": "PCM"]])
        #expect(profile.appDirectoryQuota == 104_857_600)
        #expect(profile.supportedLanguages.count == 22)
        #expect(
            profile.startServiceVehicleInfo
                == .init(make: "SDL", model: "Generic", modelYear: "2019", trim: "SE", systemSoftwareVersion: "12345_US"))
        for type in [
            "APP_SERVICES", "DRIVER_DISTRACTION", "NAVIGATION", "PHONE_CALL", "REMOTE_CONTROL", "SEAT_LOCATION", "VIDEO_STREAMING",
            "DISPLAYS",
        ] {
            #expect(profile.systemCapability(type) != nil, "\(type)")
        }
        Self.expectProjection(profile)
    }

    /// Both profiles advertise what projection needs (MOBILE_API `VideoStreamingCapability`):
    /// the screen below the HMI's header (as generic_hmi advertises its template area), H.264
    /// over RAW and RTP, haptic data, the screen's size, density and scale.
    static func expectProjection(_ profile: SimulatorProfile) {
        let capability = profile.systemCapability("VIDEO_STREAMING")?["videoStreamingCapability"]
        let screen = profile.registerAppInterfaceResponse()["displayCapabilities"]?["screenParams"]?["resolution"]
        let width = screen?["resolutionWidth"]?.intValue ?? 0
        let height = screen?["resolutionHeight"]?.intValue ?? 0
        #expect(
            capability?["preferredResolution"]
                == ["resolutionWidth": .int(width), "resolutionHeight": .int(height - SimulatorProfile.headerHeight)])
        #expect(
            capability?["supportedFormats"] == [["protocol": "RAW", "codec": "H264"], ["protocol": "RTP", "codec": "H264"]])
        #expect((capability?["maxBitrate"]?.intValue ?? 0) > 0)
        #expect(capability?["hapticSpatialDataSupported"] == true)
        for key in ["diagonalScreenSize", "pixelPerInch", "scale"] {
            #expect((capability?[key]?.doubleValue ?? 0) > 0, "\(key)")
        }
    }

    @Test("full: the richer head unit the simulator had before (38 text fields, 800×480, every speech capability)")
    func fullProfile() throws {
        let profile = try #require(SimulatorProfile.named("full"))
        #expect(profile == (try SimulatorProfile.loadBuiltIn(.full)))
        Self.expectProjection(profile)
        let response = profile.registerAppInterfaceResponse()
        let display = try #require(response["displayCapabilities"])
        #expect(display["textFields"]?.arrayValue?.count == 38)
        #expect(display["imageFields"]?.arrayValue?.count == 18)
        #expect(display["screenParams"]?["resolution"] == ["resolutionWidth": 800, "resolutionHeight": 480])
        #expect(response["speechCapabilities"] == ["TEXT", "PRE_RECORDED", "SAPI_PHONEMES", "LHPLUS_PHONEMES", "SILENCE", "FILE"])
        #expect(response["audioPassThruCapabilities"] == [["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"]])
        #expect(profile.supportedLanguages.count == 39)
        #expect(SimulatorProfile.named("no-such-profile") == nil)
        #expect(SimulatorProfile.BuiltIn.all.map(\.name) == ["core-8.2", "full"])
    }

    @Test("--profile takes a built-in name or a file; a name that is neither is an unreadable file")
    func nameOrPath() throws {
        #expect(try SimulatorProfile(nameOrPath: "full") == SimulatorProfile.full)
        #expect(try SimulatorProfile(nameOrPath: "core-8.2") == SimulatorProfile.default)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString).json")
        try SimulatorProfile.defaultJSON.write(to: file, atomically: true, encoding: .utf8)
        #expect(try SimulatorProfile(nameOrPath: file.path) == SimulatorProfile.default)
        let error = #expect(throws: SimulatorProfileError.self) { try SimulatorProfile(nameOrPath: "core-9") }
        #expect(error?.kind == .unreadable)
    }

    @Test("The embedded profile is the repository's Resources/default-profile.json, byte for byte")
    func embeddedIsTheFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HeadUnitModel/Resources/default-profile.json")
        #expect(try SimulatorProfile.defaultProfileData() == Data(contentsOf: file))
    }

    @Test("Resources without the file: an unreadable error naming the file")
    func missingResource() throws {
        let error = #expect(throws: SimulatorProfileError.self) { try SimulatorProfile.loadDefault(from: [:]) }
        #expect(error?.kind == .unreadable)
        #expect(error?.message.contains("default-profile.json is missing") == true)
    }

    @Test("A broken file: the error names the file and the problem's JSON path")
    func invalidResource() throws {
        let malformed = #expect(throws: SimulatorProfileError.self) {
            try SimulatorProfile.loadDefault(from: ["default-profile.json": Array("{\"language\": ".utf8)])
        }
        #expect(malformed?.kind == .malformedJSON)
        #expect(malformed?.message.hasPrefix("default-profile.json (built-in profile core-8.2): ") == true)

        let invalid = #expect(throws: SimulatorProfileError.self) {
            try SimulatorProfile.loadDefault(from: [
                "default-profile.json": Array("{\"language\": \"EN-US\", \"hmiDisplayLanguage\": \"EN-US\", \"colour\": 1}".utf8)
            ])
        }
        #expect(invalid?.kind == .invalidProfile)
        #expect(invalid?.path == "$.colour")
    }
}
