import NIOCore
import SDLProtocol
import Testing

@testable import SDLClient

/// One row of the SDL-0156 transition table: from, to, the delegate calls, the proposal's example.
struct AppStateTransitionRow: Sendable, CustomTestStringConvertible {
    var from: SDLAppState
    var to: SDLAppState
    var calls: [SDLAppLifecycleCall]
    var example: String
    var testDescription: String { "\(from) → \(to): \(example)" }

    init(_ from: SDLAppState, _ to: SDLAppState, _ calls: [SDLAppLifecycleCall], _ example: String) {
        self.from = from
        self.to = to
        self.calls = calls
        self.example = example
    }

    /// The proposal's table, row by row ("Any level → Not connected" written out per level).
    static let all: [AppStateTransitionRow] = [
        .init(.active, .disconnected, [.didDisconnect], "phone disconnected from FULL"),
        .init(.limited, .disconnected, [.didDisconnect], "phone disconnected from LIMITED"),
        .init(.background, .disconnected, [.didDisconnect], "phone disconnected from BACKGROUND"),
        .init(.notRunning, .disconnected, [.didDisconnect], "phone disconnected from NONE"),
        .init(.disconnected, .notRunning, [.didConnect], "app just registered"),
        .init(.background, .notRunning, [.didClose], "background app was closed"),
        .init(.limited, .notRunning, [.didClose], "active media app closed by the user while the HMI is in Nav"),
        .init(.active, .notRunning, [.didClose], "app was closed by the user"),
        .init(
            .disconnected, .background, [.didConnect, .didFinishLaunching, .didEnterBackground],
            "app with background service just registered"),
        .init(.notRunning, .background, [.didFinishLaunching, .didEnterBackground], "app just got permission to serve in background"),
        .init(.limited, .background, [.didEnterBackground], "media app closed as the user selected another media app"),
        .init(.active, .background, [.didEnterBackground], "non-media app backgrounded as the user moved to media"),
        .init(
            .disconnected, .limited, [.didConnect, .didFinishLaunching, .didBecomeLimited],
            "media app resumed after ignition cycle while the HMI is in Nav"),
        .init(
            .notRunning, .limited, [.didFinishLaunching, .didBecomeLimited], "media app started by the system, not brought to foreground"),
        .init(.background, .limited, [.didBecomeLimited], "media app started by the system from BACKGROUND"),
        .init(.active, .limited, [.didBecomeLimited], "media app backgrounded as the user moved to Nav"),
        .init(
            .disconnected, .active, [.didConnect, .didFinishLaunching, .didBecomeActive],
            "media app resumed after ignition cycle and visible"),
        .init(.notRunning, .active, [.didFinishLaunching, .didBecomeActive], "app selected by the user or system"),
        .init(.background, .active, [.didBecomeActive], "background app selected by the user"),
        .init(.limited, .active, [.didBecomeActive], "active media app selected by the user"),
    ]
}

@Suite("AppState transitions (SDL-0156)")
struct AppStateTransitionTests {
    @Test("The table has twenty rows, one per ordered pair of distinct states")
    func tableSize() {
        #expect(AppStateTransitionRow.all.count == 20)
        let pairs = Set(AppStateTransitionRow.all.map { "\($0.from)-\($0.to)" })
        let expected = Set(SDLAppState.allCases.flatMap { from in SDLAppState.allCases.filter { $0 != from }.map { "\(from)-\($0)" } })
        #expect(pairs == expected)
    }

    @Test("Each row names the delegate calls of SDL-0156, and the appState event lists them", arguments: AppStateTransitionRow.all)
    func lifecycleCalls(_ row: AppStateTransitionRow) {
        #expect(SDLAppState.lifecycleCalls(from: row.from, to: row.to) == row.calls)
        let data = SDLAppEvent.appState(from: row.from, to: row.to).data
        #expect(data["lifecycle"] == .array(row.calls.map { .string($0.rawValue) }))
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
        #expect(SDLAppState.lifecycleCalls(from: state, to: state).isEmpty)
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
        let events = tracker.apply(
            response: "RegisterAppInterface", parameters: AppStateFixture.registrationResponse, now: AppStateFixture.t0)
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

    @Test(
        "OnAppInterfaceUnregistered moves any registered state to disconnected and keeps the raw notification",
        arguments: [SDLAppState.active, .limited, .background, .notRunning])
    func unregistered(_ state: SDLAppState) {
        var tracker = AppStateFixture.tracker(in: state)
        let events = tracker.apply(
            notification: "OnAppInterfaceUnregistered", parameters: ["reason": "IGNITION_OFF"], now: AppStateFixture.t0)
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
        let main = tracker.apply(
            notification: "OnHMIStatus", parameters: AppStateFixture.hmiStatus(.full, windowID: 0), now: AppStateFixture.t0)
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
        let events = tracker.apply(
            notification: "OnHMIStatus", parameters: AppStateFixture.hmiStatus(.full, audio: "AUDIBLE"), now: AppStateFixture.t0)
        #expect(
            events == [
                .hmiStatus(
                    SDLHMIStatus(
                        hmiLevel: .full, audioStreamingState: "AUDIBLE", systemContext: "MAIN", videoStreamingState: "NOT_STREAMABLE"))
            ])
        #expect(tracker.snapshot["audioStreamingState"] == "AUDIBLE")
    }

    @Test("A binary OnHMIStatus message is named through the catalog")
    func binaryMessage() {
        var tracker = SDLAppStateTracker()
        let message = SDLRPCMessage(
            rpcType: .notification, functionID: 32768, correlationID: SDLRPCMessage.notificationCorrelationID,
            parameters: AppStateFixture.hmiStatus(.limited))
        let events = tracker.apply(message, now: AppStateFixture.t0)
        #expect(events.appStateTransitions == [.appState(from: .disconnected, to: .limited)])
        #expect(tracker.lastUpdate == AppStateFixture.t0)
    }
}
