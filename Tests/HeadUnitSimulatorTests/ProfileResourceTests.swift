import Foundation
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

/// The built-in profile, embedded from `Resources/default-profile.json`: it is the profile
/// the simulator always had, and a missing or broken file is a clear error.
@Suite("Simulator profile: the built-in resource")
struct ProfileResourceTests {
    @Test("The resource holds exactly the text the built-in profile had as a Swift literal")
    func sameText() {
        // CRC-32 of the former `SimulatorProfile.defaultJSON` literal; change it together with the
        // file when the built-in profile is edited on purpose (last: Core's supportedDiagModes added).
        let text = SimulatorProfile.defaultJSON.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(SDLCRC32.checksum(text) == 0x7F01_D222)
        #expect(text.utf8.count == 19_680)
    }

    @Test("Loading the resource again gives the same profile, with the key capabilities of before")
    func keyCapabilities() throws {
        let profile = try SimulatorProfile.loadDefault()
        #expect(profile == SimulatorProfile.default)
        #expect(profile == (try SimulatorProfile(json: Array(SimulatorProfile.defaultJSON.utf8))))

        let response = profile.registerAppInterfaceResponse()
        let display = try #require(response["displayCapabilities"])
        #expect(display["displayType"] == "SDL_GENERIC")
        #expect(display["displayName"] == "GENERIC_DISPLAY")
        #expect(display["textFields"]?.arrayValue?.count == 38)
        #expect(display["imageFields"]?.arrayValue?.count == 18)
        #expect(display["screenParams"]?["resolution"] == ["resolutionWidth": 800, "resolutionHeight": 480])
        let buttons = response["buttonCapabilities"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(buttons == [
            "OK", "PLAY_PAUSE", "SEEKLEFT", "SEEKRIGHT", "TUNEUP", "TUNEDOWN", "PRESET_0", "PRESET_1", "PRESET_2", "PRESET_3",
            "PRESET_4", "PRESET_5", "PRESET_6", "PRESET_7", "PRESET_8", "PRESET_9", "SEARCH",
        ])
        #expect(response["vehicleType"] == ["make": "SDL", "model": "Generic", "modelYear": "2019", "trim": "SE"])
        #expect(response["syncMsgVersion"] == ["majorVersion": 8, "minorVersion": 0, "patchVersion": 0])
        #expect(response["sdlVersion"] == "8.2.0")
        #expect(response["systemSoftwareVersion"] == "12345_US")
        #expect(response["speechCapabilities"] == ["TEXT", "PRE_RECORDED", "SAPI_PHONEMES", "LHPLUS_PHONEMES", "SILENCE", "FILE"])
        #expect(response["audioPassThruCapabilities"] == [["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"]])
        #expect(profile.appDirectoryQuota == 104_857_600)
        #expect(profile.supportedLanguages.count == 39)
        #expect(profile.startServiceVehicleInfo == .init(make: "SDL", model: "Generic", modelYear: "2019", trim: "SE", systemSoftwareVersion: "12345_US"))
        for type in ["APP_SERVICES", "DRIVER_DISTRACTION", "NAVIGATION", "PHONE_CALL", "REMOTE_CONTROL", "SEAT_LOCATION", "VIDEO_STREAMING", "DISPLAYS"] {
            #expect(profile.systemCapability(type) != nil, "\(type)")
        }
    }

    @Test("The embedded profile is the repository's Resources/default-profile.json, byte for byte")
    func embeddedIsTheFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HeadUnitSimulator/Resources/default-profile.json")
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
        #expect(malformed?.message.hasPrefix("default-profile.json (built-in profile): ") == true)

        let invalid = #expect(throws: SimulatorProfileError.self) {
            try SimulatorProfile.loadDefault(from: ["default-profile.json": Array("{\"language\": \"EN-US\", \"hmiDisplayLanguage\": \"EN-US\", \"colour\": 1}".utf8)])
        }
        #expect(invalid?.kind == .invalidProfile)
        #expect(invalid?.path == "$.colour")
    }
}
