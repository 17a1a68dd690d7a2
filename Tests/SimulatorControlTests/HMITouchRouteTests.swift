import HTTPAPISupport
import HeadUnitModel
import HeadlessHMI
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SDLProtocol
import SimulatorControl
import TestSupport
import Testing

/// `POST /apps/{appID}/touch` of the headless HMI's control API, against a fake Core on loopback
/// that registered a navigation app: the simulator's body, sent on as `UI.OnTouchEvent`.
@Suite("Headless HMI touch route", .timeLimit(.minutes(1)))
struct HMITouchRouteTests {
    static let coreAppID: Int64 = 1_443_150_703

    @Test("A touch on the app in FULL reaches Core as UI.OnTouchEvent; before FULL 409 app-not-touchable; a bad touch 422 or 400")
    func touch() async throws {
        let maps: SDLJSON = ["appID": .int(Self.coreAppID), "appName": "Maps", "policyAppID": "maps01", "appType": ["NAVIGATION"]]
        try await HMIControlNamesTests.withCore(application: maps) { client, fake in
            let (early, problem) = try await HMIControlNamesTests.post(
                client, "/apps/maps01/touch", ["type": "BEGIN", "x": 5, "y": 6])
            #expect(early == .conflict)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:app-not-touchable", "\(String(describing: problem))")

            try await fake.send(
                .request(
                    id: 91, method: "BasicCommunication.ActivateApp", params: ["appID": .int(Self.coreAppID), "level": "FULL"]))
            _ = try await fake.next { $0.answeredMethod == "BasicCommunication.ActivateApp" }

            let drag: SDLJSON = ["events": [["type": "BEGIN", "x": 100, "y": 200], ["type": "END", "x": 140, "y": 210, "id": 2]]]
            let (status, body) = try await HMIControlNamesTests.post(client, "/apps/maps01/touch", drag)
            #expect(status == .ok && body == ["sent": 2], "\(String(describing: body))")
            for (type, x, id) in [("BEGIN", 100, 0), ("END", 140, 2)] as [(String, Int64, Int64)] {
                let sent = try await fake.next { if case .notification("UI.OnTouchEvent", _) = $0 { true } else { false } }
                guard case .notification(_, let params) = sent else { continue }
                #expect(params["type"]?.stringValue == type)
                let event = params["event"]?.arrayValue?.first
                #expect(event?["id"]?.intValue == id)
                #expect(event?["c"]?.arrayValue?.first?["x"]?.intValue == x)
                #expect(params["appID"] == nil, "HMI_API's OnTouchEvent names no app")
            }
            let (bad, _) = try await HMIControlNamesTests.post(client, "/apps/maps01/touch", ["type": "TAP", "x": 1, "y": 1])
            #expect(bad == .unprocessableContent)
            let (unknownMember, _) = try await HMIControlNamesTests.post(
                client, "/apps/maps01/touch", ["type": "BEGIN", "x": 1, "y": 1, "z": 0])
            #expect(unknownMember == .badRequest)
        }
    }
}
