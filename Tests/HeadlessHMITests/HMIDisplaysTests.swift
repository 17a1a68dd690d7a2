import HeadUnitModel
import HeadlessHMI
import SDLProtocol
import Testing

@Suite("The headless HMI tells Core each app's displays, as generic_hmi does")
struct HMIDisplaysTests {
    @Test("OnAppRegistered → BasicCommunication.OnSystemCapabilityUpdated with the profile's DISPLAYS for that app; before activation")
    func displaysOnRegistration() throws {
        var hmi = HeadlessHMI(answers: HMIAnswers(profile: .default), autoActivate: true)
        _ = try HeadlessHMITests.ready(&hmi)
        let sent = try hmi.receive(
            .notification(method: "BasicCommunication.OnAppRegistered", params: ["application": ["appID": 65537, "appName": "Radio"]]))
        let displays = try #require(SimulatorProfile.default.systemCapability("DISPLAYS"))
        #expect(
            sent.first
                == .notification(
                    method: "BasicCommunication.OnSystemCapabilityUpdated", params: ["systemCapability": displays, "appID": 65537]))
        #expect(displays["systemCapabilityType"] == "DISPLAYS")
        #expect(displays["displayCapabilities"]?.arrayValue?.first?["windowCapabilities"] != nil)
        // Auto-activation follows it: the app is told its screen before it is shown.
        #expect(sent.count > 1)
    }
}
