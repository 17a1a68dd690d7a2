import NIOCore
import SDLProtocol
import Testing

@testable import SDLClient

/// One row of the lock screen rule table of ``SDLLockScreenStatus``.
struct LockScreenRow: Sendable, CustomTestStringConvertible {
    var level: SDLHMILevel?
    var driverDistraction: Bool?
    var userSelected: Bool
    var expected: SDLLockScreenStatus
    var testDescription: String {
        let dd = driverDistraction.map { $0 ? "DD_ON" : "DD_OFF" } ?? "DD unknown"
        return "\(level?.rawValue ?? "unregistered"), \(dd), \(userSelected ? "launched" : "not launched") → \(expected)"
    }

    /// Every combination: 5 levels × 3 distraction states × 2 launched flags = 30 rows.
    static let all: [LockScreenRow] = {
        var rows: [LockScreenRow] = []
        let levels: [SDLHMILevel?] = [nil, SDLHMILevel.full, SDLHMILevel.limited, SDLHMILevel.background, SDLHMILevel.none]
        for level in levels {
            for dd in [nil, true, false] as [Bool?] {
                for selected in [false, true] {
                    let expected: SDLLockScreenStatus
                    switch level {
                    case nil, .none?: expected = .off
                    case .background?: expected = !selected ? .off : (dd == false ? .optional : .required)
                    case .full?, .limited?: expected = dd == false ? .optional : .required
                    }
                    rows.append(LockScreenRow(level: level, driverDistraction: dd, userSelected: selected, expected: expected))
                }
            }
        }
        return rows
    }()
}

@Suite("AppState lock screen rules")
struct AppStateLockScreenTests {
    typealias F = AppStateFixture

    @Test("Each combination of level, driver distraction and launch gives the documented status", arguments: LockScreenRow.all)
    func rule(_ row: LockScreenRow) {
        #expect(
            SDLLockScreenStatus(hmiLevel: row.level, driverDistraction: row.driverDistraction, userSelected: row.userSelected)
                == row.expected)
    }

    @Test("The documented rows: OFF unregistered and in NONE, BACKGROUND OFF unless launched, DD_ON required, DD_OFF optional")
    func namedRows() {
        #expect(SDLLockScreenStatus(hmiLevel: nil, driverDistraction: true, userSelected: true) == .off)
        #expect(SDLLockScreenStatus(hmiLevel: SDLHMILevel.none, driverDistraction: true, userSelected: true) == .off)
        #expect(SDLLockScreenStatus(hmiLevel: .background, driverDistraction: true, userSelected: false) == .off)
        #expect(SDLLockScreenStatus(hmiLevel: .background, driverDistraction: true, userSelected: true) == .required)
        #expect(SDLLockScreenStatus(hmiLevel: .background, driverDistraction: nil, userSelected: true) == .required)
        #expect(SDLLockScreenStatus(hmiLevel: .background, driverDistraction: false, userSelected: true) == .optional)
        #expect(SDLLockScreenStatus(hmiLevel: .full, driverDistraction: true, userSelected: false) == .required)
        #expect(SDLLockScreenStatus(hmiLevel: .limited, driverDistraction: true, userSelected: false) == .required)
        #expect(SDLLockScreenStatus(hmiLevel: .full, driverDistraction: nil, userSelected: false) == .required)
        #expect(SDLLockScreenStatus(hmiLevel: .full, driverDistraction: false, userSelected: false) == .optional)
        #expect(SDLLockScreenStatus(hmiLevel: .limited, driverDistraction: false, userSelected: true) == .optional)
    }

    @Test("The first FULL before any driver distraction state requires the lock screen")
    func firstFull() {
        var tracker = F.tracker(in: .notRunning)
        #expect(tracker.lockScreen == .off)
        let events = tracker.apply(notification: "OnHMIStatus", parameters: F.hmiStatus(.full), now: F.t0)
        #expect(events.lockScreenChanges == [.required])
        #expect(tracker.snapshot["lockScreen"] == "REQUIRED")
    }

    @Test("Core's order NONE, DD_OFF, FULL gives OPTIONAL; DD_ON then makes it REQUIRED and DD_OFF OPTIONAL again")
    func coreOrder() {
        var tracker = F.tracker(in: .notRunning)
        let dd = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_OFF"], now: F.t0)
        #expect(dd == [.driverDistraction(on: false, parameters: ["state": "DD_OFF"])])
        let full = tracker.apply(notification: "OnHMIStatus", parameters: F.hmiStatus(.full), now: F.t0)
        #expect(full.lockScreenChanges == [.optional])
        let on = tracker.apply(
            notification: "OnDriverDistraction", parameters: ["state": "DD_ON", "lockScreenDismissalEnabled": true], now: F.t0)
        #expect(
            on == [
                .driverDistraction(on: true, parameters: ["state": "DD_ON", "lockScreenDismissalEnabled": true]), .lockScreen(.required),
            ])
        #expect(tracker.snapshot["driverDistraction"] == "DD_ON")
        let off = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_OFF"], now: F.t0)
        #expect(off.lockScreenChanges == [.optional])
    }

    @Test("LIMITED with DD_ON requires the lock screen")
    func limitedDistracted() {
        var tracker = F.tracker(in: .notRunning)
        _ = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_ON"], now: F.t0)
        #expect(tracker.lockScreen == .off)
        let events = tracker.apply(notification: "OnHMIStatus", parameters: F.hmiStatus(.limited), now: F.t0)
        #expect(events.lockScreenChanges == [.required])
    }

    @Test("BACKGROUND after a launch keeps the lock screen with DD_ON and makes it optional with DD_OFF")
    func backgroundAfterLaunch() {
        var tracker = F.tracker(in: .active)
        _ = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_ON"], now: F.t0)
        let background = tracker.apply(notification: "OnHMIStatus", parameters: F.hmiStatus(.background), now: F.t0)
        #expect(background.lockScreenChanges.isEmpty)
        #expect(tracker.lockScreen == .required)
        let off = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_OFF"], now: F.t0)
        #expect(off.lockScreenChanges == [.optional])
    }

    @Test("BACKGROUND without a launch has no lock screen, even with DD_ON")
    func backgroundWithoutLaunch() {
        var tracker = F.tracker(in: .notRunning)
        _ = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_ON"], now: F.t0)
        let events = tracker.apply(notification: "OnHMIStatus", parameters: F.hmiStatus(.background), now: F.t0)
        #expect(events.lockScreenChanges.isEmpty)
        #expect(tracker.lockScreen == .off)
    }

    @Test("NONE turns the lock screen off and forgets the launch, so a later BACKGROUND has none")
    func noneForgetsLaunch() {
        var tracker = F.tracker(in: .active)
        _ = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_ON"], now: F.t0)
        let none = tracker.apply(notification: "OnHMIStatus", parameters: F.hmiStatus(.none), now: F.t0)
        #expect(none.lockScreenChanges == [.off])
        #expect(tracker.userSelected == false)
        let background = tracker.apply(notification: "OnHMIStatus", parameters: F.hmiStatus(.background), now: F.t0)
        #expect(background.lockScreenChanges.isEmpty)
        #expect(tracker.lockScreen == .off)
    }

    @Test("Losing the link turns the lock screen off and forgets driver distraction")
    func linkDown() {
        var tracker = F.tracker(in: .active)
        let events = tracker.linkDown(now: F.t0)
        #expect(events == [.appState(from: .active, to: .disconnected), .lockScreen(.off)])
        #expect(tracker.driverDistraction == nil)
        #expect(tracker.snapshot["driverDistraction"] == .null)
    }

    @Test("An unknown driver distraction state is passed on raw and changes nothing")
    func unknownDistraction() {
        var tracker = F.tracker(in: .active)
        let events = tracker.apply(notification: "OnDriverDistraction", parameters: ["state": "DD_MAYBE"], now: F.t0)
        #expect(events == [.notification(name: "OnDriverDistraction", parameters: ["state": "DD_MAYBE"])])
        #expect(tracker.lockScreen == .required)
    }
}
