import NIOCore
import SDLProtocol
import Testing

@testable import SDLClient

/// One row of the SDL-0156 transition table.
struct AppStateTransitionRow: Sendable, CustomTestStringConvertible {
    var from: SDLAppState
    var to: SDLAppState
    var testDescription: String { "\(from) → \(to)" }

    /// Every ordered pair of distinct states: 5 × 4 = 20 rows.
    static let all: [AppStateTransitionRow] = SDLAppState.allCases.flatMap { from in
        SDLAppState.allCases.filter { $0 != from }.map { AppStateTransitionRow(from: from, to: $0) }
    }
}

@Suite("AppState transitions (SDL-0156)")
struct AppStateTransitionTests {
    @Test("The table has twenty rows, one per ordered pair of distinct states")
    func tableSize() {
        #expect(AppStateTransitionRow.all.count == 20)
        #expect(Set(AppStateTransitionRow.all.map(\.testDescription)).count == 20)
    }

    @Test("Each row of the transition table publishes exactly one appState event naming from and to", arguments: AppStateTransitionRow.all)
    func row(_ row: AppStateTransitionRow) {
        var tracker = AppStateFixture.tracker(in: row.from)
        #expect(tracker.appState == row.from)
        let events = AppStateFixture.move(&tracker, to: row.to)
        #expect(tracker.appState == row.to)
        #expect(events.appStateTransitions == [.appState(from: row.from, to: row.to)])
        #expect(tracker.snapshot["appState"] == .string(row.to.rawValue))
    }

    @Test("Staying in a state publishes no appState event", arguments: SDLAppState.allCases)
    func noTransition(_ state: SDLAppState) {
        var tracker = AppStateFixture.tracker(in: state)
        let events = AppStateFixture.move(&tracker, to: state)
        #expect(events.appStateTransitions.isEmpty)
        #expect(tracker.appState == state)
    }

    @Test("HMI levels map to app states: FULL active, LIMITED limited, BACKGROUND background, NONE notRunning")
    func mapping() {
        #expect(SDLAppState(hmiLevel: .full) == .active)
        #expect(SDLAppState(hmiLevel: .limited) == .limited)
        #expect(SDLAppState(hmiLevel: .background) == .background)
        #expect(SDLAppState(hmiLevel: .none) == .notRunning)
        #expect(SDLAppState.disconnected.hmiLevel == nil)
        for level in SDLHMILevel.allCases { #expect(SDLAppState(hmiLevel: level).hmiLevel == level) }
    }

    @Test("A successful registration moves disconnected to notRunning before any OnHMIStatus")
    func registration() {
        var tracker = SDLAppStateTracker()
        let events = tracker.apply(response: "RegisterAppInterface", parameters: AppStateFixture.registrationResponse, now: AppStateFixture.t0)
        #expect(events.appStateTransitions == [.appState(from: .disconnected, to: .notRunning)])
        #expect(tracker.hmiStatus == nil)
        #expect(tracker.snapshot["hmiLevel"] == "NONE")
        let first = tracker.apply(notification: "OnHMIStatus", parameters: AppStateFixture.hmiStatus(.none), now: AppStateFixture.t0)
        #expect(first.appStateTransitions.isEmpty)
        #expect(first.first?.type == "hmiStatus")
    }

    @Test("A failed registration response leaves the app disconnected")
    func failedRegistration() {
        var tracker = SDLAppStateTracker()
        let events = tracker.apply(
            response: "RegisterAppInterface",
            parameters: ["success": false, "resultCode": "DUPLICATE_NAME"],
            now: AppStateFixture.t0
        )
        #expect(events.isEmpty)
        #expect(tracker.appState == .disconnected)
    }

    @Test("OnAppInterfaceUnregistered moves any registered state to disconnected and keeps the raw notification", arguments: [SDLAppState.active, .limited, .background, .notRunning])
    func unregistered(_ state: SDLAppState) {
        var tracker = AppStateFixture.tracker(in: state)
        let events = tracker.apply(notification: "OnAppInterfaceUnregistered", parameters: ["reason": "IGNITION_OFF"], now: AppStateFixture.t0)
        #expect(events.first == .notification(name: "OnAppInterfaceUnregistered", parameters: ["reason": "IGNITION_OFF"]))
        #expect(events.appStateTransitions == [.appState(from: state, to: .disconnected)])
        #expect(tracker.hmiStatus == nil)
    }

    @Test("A status for another window changes nothing and comes back as a raw notification")
    func otherWindow() {
        var tracker = AppStateFixture.tracker(in: .notRunning)
        let parameters = AppStateFixture.hmiStatus(.full, windowID: 1)
        let events = tracker.apply(notification: "OnHMIStatus", parameters: parameters, now: AppStateFixture.t0)
        #expect(events == [.notification(name: "OnHMIStatus", parameters: parameters)])
        #expect(tracker.appState == .notRunning)
        let main = tracker.apply(notification: "OnHMIStatus", parameters: AppStateFixture.hmiStatus(.full, windowID: 0), now: AppStateFixture.t0)
        #expect(main.appStateTransitions == [.appState(from: .notRunning, to: .active)])
    }

    @Test("An OnHMIStatus without its mandatory parameters changes nothing")
    func malformedStatus() {
        var tracker = AppStateFixture.tracker(in: .background)
        let events = tracker.apply(notification: "OnHMIStatus", parameters: ["hmiLevel": "SIDEWAYS"], now: AppStateFixture.t0)
        #expect(events == [.notification(name: "OnHMIStatus", parameters: ["hmiLevel": "SIDEWAYS"])])
        #expect(tracker.appState == .background)
    }

    @Test("An audio change at the same level publishes hmiStatus but no appState event")
    func audioOnly() {
        var tracker = AppStateFixture.tracker(in: .active)
        let events = tracker.apply(notification: "OnHMIStatus", parameters: AppStateFixture.hmiStatus(.full, audio: "AUDIBLE"), now: AppStateFixture.t0)
        #expect(events == [.hmiStatus(SDLHMIStatus(hmiLevel: .full, audioStreamingState: "AUDIBLE", systemContext: "MAIN", videoStreamingState: "NOT_STREAMABLE"))])
        #expect(tracker.snapshot["audioStreamingState"] == "AUDIBLE")
    }

    @Test("A binary OnHMIStatus message is named through the catalog")
    func binaryMessage() {
        var tracker = SDLAppStateTracker()
        let message = SDLRPCMessage(rpcType: .notification, functionID: 32768, correlationID: SDLRPCMessage.notificationCorrelationID, parameters: AppStateFixture.hmiStatus(.limited))
        let events = tracker.apply(message, now: AppStateFixture.t0)
        #expect(events.appStateTransitions == [.appState(from: .disconnected, to: .limited)])
        #expect(tracker.lastUpdate == AppStateFixture.t0)
    }
}
