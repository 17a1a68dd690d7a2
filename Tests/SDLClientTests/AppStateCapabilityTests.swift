import NIOCore
import SDLProtocol
import Testing

@testable import SDLClient

@Suite("AppState capabilities, language and snapshot")
struct AppStateCapabilityTests {
    typealias F = AppStateFixture

    static let navigation: SDLJSON = [
        "systemCapabilityType": "NAVIGATION",
        "navigationCapability": ["sendLocationEnabled": true, "getWayPointsEnabled": false],
    ]

    @Test("The registration response gives the head unit's capabilities and language")
    func registration() {
        var tracker = SDLAppStateTracker()
        let events = tracker.apply(response: "RegisterAppInterface", parameters: F.registrationResponse, now: F.t0)
        #expect(events.contains(.language(language: "EN-US", hmiDisplayLanguage: "EN-US")))
        #expect(tracker.registration == F.registrationResponse)
        #expect(tracker.capabilities["vehicleType"]?["make"] == "SDL")
        #expect(tracker.capabilities["displayCapabilities"]?["displayName"] == "GENERIC_DISPLAY")
        #expect(tracker.capabilities["buttonCapabilities"]?.arrayValue?.count == 1)
        #expect(tracker.capabilities["success"] == nil)
        #expect(tracker.snapshot["language"] == "EN-US")
    }

    @Test("A registration response as a binary message is named through the catalog")
    func binaryRegistration() {
        var tracker = SDLAppStateTracker()
        let message = SDLRPCMessage(rpcType: .response, functionID: 1, correlationID: 1, parameters: F.registrationResponse)
        let events = tracker.apply(response: message, now: F.t0)
        #expect(events.appStateTransitions == [.appState(from: .disconnected, to: .notRunning)])
        #expect(tracker.isRegistered)
    }

    @Test("A GetSystemCapability response stores the capability by its type and publishes it")
    func getSystemCapability() {
        var tracker = F.tracker(in: .active)
        let events = tracker.apply(
            response: "GetSystemCapability",
            parameters: ["success": true, "resultCode": "SUCCESS", "systemCapability": Self.navigation],
            now: F.t0
        )
        #expect(events == [.systemCapability(type: "NAVIGATION", capability: Self.navigation)])
        #expect(tracker.systemCapabilities["NAVIGATION"] == Self.navigation)
        #expect(tracker.snapshot["systemCapabilities"]?["NAVIGATION"] == Self.navigation)
        #expect(events.first?.data["systemCapabilityType"] == "NAVIGATION")
    }

    @Test("OnSystemCapabilityUpdated replaces the capability of its type and keeps the others")
    func update() {
        var tracker = F.tracker(in: .active)
        _ = tracker.apply(response: "GetSystemCapability", parameters: ["success": true, "systemCapability": Self.navigation], now: F.t0)
        let phone: SDLJSON = ["systemCapabilityType": "PHONE_CALL", "phoneCapability": ["dialNumberEnabled": true]]
        _ = tracker.apply(notification: "OnSystemCapabilityUpdated", parameters: ["systemCapability": phone], now: F.t0)
        let newer: SDLJSON = ["systemCapabilityType": "NAVIGATION", "navigationCapability": ["sendLocationEnabled": false]]
        let events = tracker.apply(notification: "OnSystemCapabilityUpdated", parameters: ["systemCapability": newer], now: F.t0)
        #expect(events == [.systemCapability(type: "NAVIGATION", capability: newer)])
        #expect(tracker.systemCapabilities == ["NAVIGATION": newer, "PHONE_CALL": phone])
    }

    @Test("Failed responses and responses of other functions change nothing")
    func ignored() {
        var tracker = F.tracker(in: .active)
        let failed = tracker.apply(response: "GetSystemCapability", parameters: ["success": false, "resultCode": "DISALLOWED"], now: F.t0)
        let other = tracker.apply(response: "Show", parameters: ["success": true, "resultCode": "SUCCESS"], now: F.t0)
        #expect(failed.isEmpty)
        #expect(other.isEmpty)
        #expect(tracker.systemCapabilities.isEmpty)
    }

    @Test("OnLanguageChange updates the language and the HMI display language")
    func languageChange() {
        var tracker = F.tracker(in: .active)
        let events = tracker.apply(
            notification: "OnLanguageChange", parameters: ["language": "DE-DE", "hmiDisplayLanguage": "FR-FR"], now: F.t0)
        #expect(events == [.language(language: "DE-DE", hmiDisplayLanguage: "FR-FR")])
        #expect(tracker.snapshot["language"] == "DE-DE")
        #expect(tracker.snapshot["hmiDisplayLanguage"] == "FR-FR")
        let same = tracker.apply(
            notification: "OnLanguageChange", parameters: ["language": "DE-DE", "hmiDisplayLanguage": "FR-FR"], now: F.t0)
        #expect(same.isEmpty)
    }

    @Test("Other notifications come back raw and change nothing")
    func otherNotification() {
        var tracker = F.tracker(in: .active)
        let events = tracker.apply(notification: "OnButtonPress", parameters: ["buttonName": "OK", "buttonPressMode": "SHORT"], now: F.t0)
        #expect(events == [.notification(name: "OnButtonPress", parameters: ["buttonName": "OK", "buttonPressMode": "SHORT"])])
        #expect(events.first?.type == "notification")
    }

    @Test("The snapshot has every key of the app resource")
    func snapshotKeys() {
        var tracker = F.tracker(in: .active)
        _ = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_OFF"], now: F.t0)
        let snapshot = tracker.snapshot
        let keys = Set(snapshot.objectValue?.keys.map { $0 } ?? [])
        #expect(
            keys.isSuperset(of: [
                "hmiLevel", "audioStreamingState", "systemContext", "videoStreamingState", "appState",
                "driverDistraction", "lockScreen", "language", "permissions", "subscriptions",
            ])
        )
        #expect(snapshot["hmiLevel"] == "FULL")
        #expect(snapshot["systemContext"] == "MAIN")
        #expect(snapshot["videoStreamingState"] == "NOT_STREAMABLE")
        #expect(snapshot["appState"] == "active")
        #expect(snapshot["driverDistraction"] == "DD_OFF")
        #expect(snapshot["lockScreen"] == "OPTIONAL")
        let fresh = SDLAppStateTracker().snapshot
        #expect(fresh["hmiLevel"] == .null)
        #expect(fresh["appState"] == "disconnected")
        #expect(fresh["lockScreen"] == "OFF")
    }

    @Test("Event data for the stream: appState names from and to, hmiStatus the four fields")
    func eventData() {
        #expect(
            SDLAppEvent.appState(from: .notRunning, to: .active).data == [
                "from": "notRunning", "to": "active", "lifecycle": ["didFinishLaunching", "didBecomeActive"],
            ])
        #expect(SDLAppEvent.hmiStatus(SDLHMIStatus(hmiLevel: .full)).data["hmiLevel"] == "FULL")
        #expect(SDLAppEvent.lockScreen(.required).data == ["status": "REQUIRED"])
        #expect(SDLAppEvent.driverDistraction(on: true, parameters: [:]).data == ["state": "DD_ON"])
    }
}
