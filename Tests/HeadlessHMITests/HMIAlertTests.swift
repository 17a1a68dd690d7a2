import HeadUnitModel
import HeadlessHMI
import NIOCore
import SDLProtocol
import TestSupport
import Testing

/// An Alert with soft buttons as SDL Core 8.2 hands it to its HMI, and what the headless HMI does
/// with it: it stays open for the driver, a soft button answers it, nobody pressing ends it ABORTED.
@Suite("The headless HMI's alerts with soft buttons")
struct HMIAlertTests {
    static let appID: Int64 = 1_443_150_702

    static func at(_ milliseconds: Int64) -> NIODeadline { HMIInteractionTests.start + .milliseconds(milliseconds) }

    static func coreAlert(id: Int64 = 71, systemAction: String = "DEFAULT_ACTION") throws -> (alert: HMIMessage, speak: HMIMessage) {
        (
            try CoreHMIMessages.alert(id: id, appID: appID, systemAction: systemAction),
            try CoreHMIMessages.alertSpeech(id: id + 1, appID: appID)
        )
    }

    static func hmi(timeScale: Double = 1) throws -> HeadlessHMI {
        var hmi = HeadlessHMI(answers: HMIAnswers(profile: .default), timeScale: timeScale)
        _ = try HeadlessHMITests.ready(&hmi)
        _ = try hmi.receive(
            .notification(
                method: "BasicCommunication.OnAppRegistered",
                params: [
                    "application": ["appID": .int(appID), "appName": "Radio", "policyAppID": "radio01"]
                ]))
        return hmi
    }

    static func context(_ value: String) -> HMIMessage {
        .notification(method: "UI.OnSystemContext", params: ["systemContext": .string(value), "appID": .int(appID)])
    }

    static func pressed(_ button: Int64) -> [HMIMessage] {
        let params: [String: SDLJSON] = ["name": "CUSTOM_BUTTON", "appID": .int(appID), "customButtonID": .int(button)]
        return [
            .notification(method: "Buttons.OnButtonEvent", params: params.merging(["mode": "BUTTONDOWN"]) { $1 }),
            .notification(method: "Buttons.OnButtonEvent", params: params.merging(["mode": "BUTTONUP"]) { $1 }),
            .notification(method: "Buttons.OnButtonPress", params: params.merging(["mode": "SHORT"]) { $1 }),
        ]
    }

    @Test(
        "Core's alert with soft buttons (duration 0) stays open past its speech; a press 3 s later sends the press, then SUCCESS and MAIN")
    func pressAnswers() throws {
        var hmi = try Self.hmi()
        let (alert, speak) = try Self.coreAlert()
        #expect(try hmi.receive(alert, now: Self.at(0)) == [Self.context("ALERT")])
        #expect(try hmi.receive(speak, now: Self.at(0)).isEmpty)
        // The speech ends by itself (1 s at the least); the alert waits for the driver.
        #expect(hmi.expireInteractions(now: Self.at(1000)) == [.answer(id: 72, method: "TTS.Speak")])
        #expect(hmi.expireInteractions(now: Self.at(2999)).isEmpty)
        #expect(hmi.interactions(ofApp: Self.appID).map(\.method) == ["UI.Alert"])
        let sent = try hmi.pressButton("CUSTOM_BUTTON", mode: "SHORT", appID: Self.appID, customButtonID: 32769, now: Self.at(3000))
        #expect(sent == Self.pressed(32769) + [.answer(id: 71, method: "UI.Alert"), Self.context("MAIN")])
        #expect(hmi.interactions.isEmpty)
    }

    @Test("A press during the speech ends the speech SUCCESS with the alert; a button the alert does not show leaves it open")
    func pressDuringSpeech() throws {
        var hmi = try Self.hmi()
        let (alert, speak) = try Self.coreAlert()
        _ = try hmi.receive(alert, now: Self.at(0))
        _ = try hmi.receive(speak, now: Self.at(0))
        #expect(
            try hmi.pressButton("CUSTOM_BUTTON", mode: "SHORT", appID: Self.appID, customButtonID: 5, now: Self.at(100)) == Self.pressed(5))
        #expect(hmi.interactions.count == 2)
        let sent = try hmi.pressButton("CUSTOM_BUTTON", mode: "SHORT", appID: Self.appID, customButtonID: 32768, now: Self.at(500))
        #expect(
            sent == Self.pressed(32768) + [.answer(id: 71, method: "UI.Alert"), Self.context("MAIN"), .answer(id: 72, method: "TTS.Speak")])
    }

    @Test("Nobody presses: the alert ends ABORTED after 10 s (generic_hmi's timeout, scaled by timeScale), not at once")
    func timesOut() throws {
        var hmi = try Self.hmi(timeScale: 0.5)
        _ = try hmi.receive(try Self.coreAlert().alert, now: Self.at(0))
        #expect(hmi.nextInteractionDeadline == Self.at(5000))
        #expect(hmi.expireInteractions(now: Self.at(4999)).isEmpty)
        #expect(hmi.expireInteractions(now: Self.at(5000)) == [.answer(id: 71, method: "UI.Alert", code: .aborted), Self.context("MAIN")])
        // Without soft buttons Core sends the app's duration, and the alert ends SUCCESS after it.
        _ = try hmi.receive(
            .request(
                id: 80, method: "UI.Alert",
                params: [
                    "appID": .int(Self.appID), "duration": 8000, "alertType": "UI",
                    "alertStrings": [["fieldName": "alertText1", "fieldText": "Low fuel"]],
                ]), now: Self.at(6000))
        #expect(hmi.nextInteractionDeadline == Self.at(10000))
        #expect(hmi.expireInteractions(now: Self.at(10000)) == [.answer(id: 80, method: "UI.Alert"), Self.context("MAIN")])
    }

    @Test("KEEP_CONTEXT keeps the alert open for its time again and tells Core; STEAL_FOCUS answers it and activates the app")
    func systemActions() throws {
        var hmi = try Self.hmi()
        _ = try hmi.receive(try Self.coreAlert(systemAction: "KEEP_CONTEXT").alert, now: Self.at(0))
        let kept = try hmi.pressButton("CUSTOM_BUTTON", mode: "SHORT", appID: Self.appID, customButtonID: 32768, now: Self.at(4000))
        #expect(
            kept == Self.pressed(32768) + [
                .notification(
                    method: "BasicCommunication.OnResetTimeout",
                    params: [
                        "requestID": 71, "methodName": "UI.Alert", "resetPeriod": 20000,
                    ])
            ])
        #expect(hmi.nextInteractionDeadline == Self.at(14000))
        _ = hmi.expireInteractions(now: Self.at(14000))

        _ = try hmi.receive(try Self.coreAlert(id: 90, systemAction: "STEAL_FOCUS").alert, now: Self.at(20000))
        let stolen = try hmi.pressButton("CUSTOM_BUTTON", mode: "SHORT", appID: Self.appID, customButtonID: 32769, now: Self.at(21000))
        #expect(Array(stolen.prefix(5)) == Self.pressed(32769) + [.answer(id: 90, method: "UI.Alert"), Self.context("MAIN")])
        guard case .request(_, "SDL.ActivateApp", let params)? = stolen.last, stolen.count == 6 else {
            Issue.record("no activation: \(stolen)"); return
        }
        #expect(params["appID"] == .int(Self.appID))
    }
}
