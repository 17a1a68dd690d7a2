import NIOCore
import SDLProtocol
import Testing

@testable import HeadUnitSimulator

/// ``HeadUnit/changeApp(_:resumable:_:)``, what every handler that changes its app goes through:
/// no app, a refusal, a change done.
@Suite("Simulator handlers: changing the request's app")
struct ChangeAppTests {
    /// The handlers that change their app through it.
    static let changingFunctions = [
        "AddCommand", "DeleteCommand", "AddSubMenu", "DeleteSubMenu", "CreateInteractionChoiceSet", "DeleteInteractionChoiceSet",
        "Show", "SetDisplayLayout", "SetMediaClockTimer", "SetGlobalProperties", "ResetGlobalProperties",
        "SubscribeButton", "UnsubscribeButton", "SubscribeVehicleData", "UnsubscribeVehicleData",
        "Alert", "Speak", "ScrollableMessage", "Slider", "SubtleAlert", "PerformInteraction", "PerformAudioPassThru",
        "DeleteFile", "SetAppIcon", "ChangeRegistration",
    ]

    static func request(_ function: String, session: UInt8, _ parameters: [String: SDLJSON] = [:]) -> Request {
        Request(
            sessionID: session, functionID: 0, function: function, correlationID: 1, parameters: parameters, bulkData: nil,
            now: .uptimeNanoseconds(1_000_000_000)
        )
    }

    static func resultCode(_ reply: Reply) -> String? {
        if case .result(let code, _, _) = reply { code } else { nil }
    }

    @Test("A session with no app: APPLICATION_NOT_REGISTERED, the change never runs, nothing is noted")
    func notRegistered() {
        var unit = HeadUnit(configuration: HeadUnitConfiguration())
        var ran = false
        let reply = unit.changeApp(Self.request("AddCommand", session: 7), resumable: true) { _, _ in
            ran = true
            return .done(.success())
        }
        #expect(Self.resultCode(reply) == "APPLICATION_NOT_REGISTERED")
        #expect(!ran)
        #expect(unit.apps.isEmpty)
        #expect(unit.hashChangesPending.isEmpty)
    }

    @Test(
        "Every handler that changes its app answers a session with no app APPLICATION_NOT_REGISTERED and schedules nothing",
        arguments: changingFunctions)
    func handlersNotRegistered(function: String) throws {
        var unit = HeadUnit(configuration: HeadUnitConfiguration())
        let handler = try #require(HeadUnit.handlers[function])
        let reply = handler(&unit, Self.request(function, session: 7, ["cmdID": 1, "menuID": 1, "menuName": "A", "syncFileName": "a.png"]))
        #expect(Self.resultCode(reply) == "APPLICATION_NOT_REGISTERED")
        #expect(unit.apps.isEmpty)
        #expect(unit.hashChangesPending.isEmpty)
        #expect(unit.nextDeadline == nil)
    }

    @Test("A refusal leaves the app as it was; a change done is written back before the answer, and noted when resumable")
    func refusedAndDone() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.register(appName: "Demo", on: connection)
        #expect(!harness.unit.hashChangesPending.contains(session))

        let refused = harness.unit.changeApp(Self.request("ChangeRegistration", session: session), resumable: true) { _, app in
            app.appName = "Changed"
            return .refused(.result("REJECTED"))
        }
        #expect(Self.resultCode(refused) == "REJECTED")
        #expect(harness.unit.apps[session]?.appName == "Demo")
        #expect(!harness.unit.hashChangesPending.contains(session))

        let done = harness.unit.changeApp(Self.request("ChangeRegistration", session: session), resumable: true) { _, app in
            app.appName = "Changed"
            return .done { unit in .result(unit.apps[session]?.appName == "Changed" ? "SUCCESS" : "GENERIC_ERROR") }
        }
        #expect(Self.resultCode(done) == "SUCCESS")
        #expect(harness.unit.apps[session]?.appName == "Changed")
        #expect(harness.unit.hashChangesPending.contains(session))
    }
}
