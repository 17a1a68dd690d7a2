import HeadUnitModel
import HeadlessHMI
import NIOCore
import SDLProtocol
import Testing

/// The driver's touches on a projected video, as the headless HMI tells Core (HMI_API
/// `UI.OnTouchEvent`, which Core's `OnTouchEventNotification` passes on to the NAVIGATION and
/// PROJECTION apps in FULL).
@Suite("The headless HMI's touches")
struct HMITouchTests {
    /// A ready HMI with a navigation app (65537) and a media app (65538) registered.
    static func hmi() throws -> HeadlessHMI {
        var hmi = try HMIStreamingTests.hmi()
        _ = try hmi.receive(
            .notification(
                method: "BasicCommunication.OnAppRegistered",
                params: ["application": ["appID": 65538, "appName": "Radio", "policyAppID": "radio-1", "appType": ["MEDIA"]]]
            ))
        return hmi
    }

    /// Core activates `appID` (BasicCommunication.ActivateApp), as after SDL.ActivateApp.
    static func activate(_ hmi: inout HeadlessHMI, _ appID: Int64) throws {
        _ = try hmi.receive(.request(id: 40, method: "BasicCommunication.ActivateApp", params: ["appID": .int(appID), "level": "FULL"]))
    }

    @Test("A navigation app in FULL: one UI.OnTouchEvent per touch, with no app ID, its timestamp the HMI clock's milliseconds")
    func touchesToCore() throws {
        var hmi = try Self.hmi()
        try Self.activate(&hmi, 65537)
        let now = NIODeadline.uptimeNanoseconds(2_000_000_123_000_000)
        let sent = try hmi.touch(
            appID: 65537, [TouchInput(type: "BEGIN", x: 400, y: 240), TouchInput(type: "END", x: 410, y: 250, id: 1)], now: now)
        #expect(
            sent == [
                .notification(
                    method: "UI.OnTouchEvent",
                    params: ["type": "BEGIN", "event": [["id": 0, "ts": [123], "c": [["x": 400, "y": 240]]]]]),
                .notification(
                    method: "UI.OnTouchEvent",
                    params: ["type": "END", "event": [["id": 1, "ts": [123], "c": [["x": 410, "y": 250]]]]]),
            ])
    }

    @Test("Refused with a stable code: an app Core would not send touches to (not FULL, not NAVIGATION/PROJECTION), a bad touch, no app")
    func refusals() throws {
        var hmi = try Self.hmi()
        #expect(throws: HMIError(.notTouchable, "app 65537 is in NONE: Core sends touches only to the app in FULL")) {
            try hmi.touch(appID: 65537, [TouchInput(type: "BEGIN", x: 1, y: 1)])
        }
        try Self.activate(&hmi, 65538)
        do {
            _ = try hmi.touch(appID: 65538, [TouchInput(type: "BEGIN", x: 1, y: 1)])
            Issue.record("a MEDIA app was touched")
        } catch {
            #expect(error.code == .notTouchable)
        }
        try Self.activate(&hmi, 65537)
        let bad: [[TouchInput]] = [
            [], [TouchInput(type: "TAP", x: 0, y: 0)], [TouchInput(type: "MOVE", x: -1, y: 0)],
            [TouchInput(type: "MOVE", x: 0, y: 0, id: 10)],
            Array(repeating: TouchInput(type: "MOVE", x: 0, y: 0), count: 101),
        ]
        for touches in bad {
            do {
                _ = try hmi.touch(appID: 65537, touches)
                Issue.record("accepted \(touches)")
            } catch {
                #expect(error.code == .invalidValue)
            }
        }
        do {
            _ = try hmi.touch(appID: 7, [TouchInput(type: "BEGIN", x: 1, y: 1)])
            Issue.record("accepted an unknown app")
        } catch {
            #expect(error.code == .unknownApp)
        }
    }
}
