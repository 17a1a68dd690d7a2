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

/// The headless HMI's control API against a fake of Core's HMI WebSocket sending the UI.Alert of
/// an alert with soft buttons as Core 8.2 does (`duration` 0).
@Suite("Headless HMI control API: a soft button answers Core's alert", .timeLimit(.minutes(1)))
struct HMIAlertPressTests {
    @Test("Core's alert with soft buttons stays open; POST /buttons/CUSTOM_BUTTON/press sends the press, then answers the alert SUCCESS")
    func pressAnswersAlert() async throws {
        let fake = try await FakeCoreHMI.bind()
        let connection = HMIConnection(
            address: fake.address, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)),
            logger: Logger.test("hmi-test"), vehicle: .none, vehicleInterval: .milliseconds(10)
        )
        let app = Application(router: HMIControlRoutes(connection: connection).makeRouter())
        let appID: Int64 = 1_443_150_702
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            try await fake.serveOne { core, _ in
                try await core.announce(["appID": .int(appID), "appName": "Radio", "policyAppID": "radio01"])
                try await core.send(try CoreHMIMessages.alert(id: 71, appID: appID))
                #expect(
                    try await core.next()
                        == .notification(method: "UI.OnSystemContext", params: ["systemContext": "ALERT", "appID": .int(appID)]))
                try await app.test(.router) { client in
                    try await client.execute(uri: "/apps/\(appID)/screen", method: .get) { response in
                        let screen = try SDLJSON.parse(response.body)
                        #expect(screen["interactions"]?.arrayValue?.first?["method"] == "UI.Alert")
                    }
                    try await client.execute(
                        uri: "/buttons/CUSTOM_BUTTON/press", method: .post, headers: [.contentType: "application/json"],
                        body: ByteBuffer(string: #"{"appID": \#(appID), "customButtonID": 32769}"#)
                    ) { response in
                        #expect(response.status == .ok)
                    }
                }
                let button: [String: SDLJSON] = ["name": "CUSTOM_BUTTON", "appID": .int(appID), "customButtonID": 32769]
                #expect(
                    try await core.next()
                        == .notification(method: "Buttons.OnButtonEvent", params: button.merging(["mode": "BUTTONDOWN"]) { $1 }))
                #expect(
                    try await core.next()
                        == .notification(method: "Buttons.OnButtonEvent", params: button.merging(["mode": "BUTTONUP"]) { $1 }))
                #expect(
                    try await core.next()
                        == .notification(method: "Buttons.OnButtonPress", params: button.merging(["mode": "SHORT"]) { $1 }))
                #expect(try await core.next() == .answer(id: 71, method: "UI.Alert"))
                #expect(
                    try await core.next()
                        == .notification(method: "UI.OnSystemContext", params: ["systemContext": "MAIN", "appID": .int(appID)]))
                #expect(connection.snapshot.interactions.isEmpty)
            }
            group.cancelAll()
        }
    }
}
