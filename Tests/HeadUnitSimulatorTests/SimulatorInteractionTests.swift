import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

@Suite("Simulator: interactions")
struct SimulatorInteractionTests {
    static let choices: SDLJSON = [
        "interactionChoiceSetID": 100,
        "choiceSet": [
            ["choiceID": 1, "menuName": "Red", "vrCommands": ["Red"]], ["choiceID": 2, "menuName": "Blue", "vrCommands": ["Blue"]],
        ],
    ]

    @Test("Alert: answered SUCCESS after its 5000 ms default; ALERT system context and the overlay while shown, then MAIN")
    func alertDefaultDuration() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let statuses = harness.notifications("OnHMIStatus", session: session, on: connection).count
        let alert = harness.request("Alert", ["alertText1": "Hello"], session: session, on: connection)
        #expect(harness.response(alert, on: connection) == nil)
        #expect(harness.unit.apps[session]!.systemContext == "ALERT")
        #expect(harness.unit.apps[session]!.screen.overlay?["function"] == "Alert")
        #expect(harness.unit.apps[session]!.screen.overlay?["parameters"]?["alertText1"] == "Hello")
        // How long it shows and when it ends, for a viewer's countdown.
        #expect(harness.unit.apps[session]!.screen.overlay?["durationMs"] == 5000)
        #expect(
            harness.unit.apps[session]!.screen.overlay?["endsAtUptimeMs"]?.intValue == Int64(harness.now.uptimeNanoseconds / 1_000_000)
                + 5000)
        harness.advance(by: .milliseconds(4999))
        #expect(harness.response(alert, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        let response = try #require(harness.response(alert, on: connection))
        #expect(response.resultCode == "SUCCESS")
        #expect(response.success == true)
        #expect(harness.unit.apps[session]!.systemContext == "MAIN")
        #expect(harness.unit.apps[session]!.screen.overlay == nil)
        #expect(harness.systemContexts(session: session, on: connection, from: statuses) == ["ALERT", "MAIN"])
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("Alert: a second Alert while one is shown is REJECTED; durations follow timeScale")
    func alertBusyAndScaled() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull(timeScale: 0.1)
        let alert = harness.request("Alert", ["alertText1": "One", "duration": 8000], session: session, on: connection)
        let reply1 = harness.call("Alert", ["alertText1": "Two"], session: session, on: connection)
        let second = try #require(reply1)
        #expect(second.resultCode == "REJECTED")
        #expect(second.success == false)
        harness.advance(by: .milliseconds(799))
        #expect(harness.response(alert, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        #expect(harness.response(alert, on: connection)?.resultCode == "SUCCESS")
        let reply2 = harness.call("Alert", ["alertText1": "Nothing"], session: session, on: connection)
        #expect(reply2 == nil)
        let reply3 = harness.call("Alert", [:], session: session, on: connection)
        #expect(reply3?.resultCode == "INVALID_DATA")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("Alert with soft buttons: answered early through the control API; its timer no longer fires")
    func alertAnsweredEarly() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let alert = harness.request(
            "Alert", ["alertText1": "Continue?", "duration": 10000, "softButtons": [["type": "TEXT", "text": "Yes", "softButtonID": 1]]],
            session: session, on: connection)
        harness.advance(by: .seconds(2))
        #expect(harness.response(alert, on: connection) == nil)
        let (sent, actions) = try harness.unit.answerInteraction(
            appID: "demo-1", InteractionAnswer(choiceID: nil, sliderPosition: nil, resultCode: nil, triggerSource: nil), now: harness.now)
        harness.apply(actions)
        #expect(sent["resultCode"] == "SUCCESS")
        #expect(harness.response(alert, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.systemContext == "MAIN")
        harness.advance(by: .seconds(10))
        let responses = (harness.received[connection] ?? []).filter {
            if case .rpc(_, let rpc) = $0 { return rpc.rpcType == .response && rpc.correlationID == alert }
            return false
        }
        #expect(responses.count == 1)
        #expect(throws: SimulatorControlError.self) {
            try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: nil, sliderPosition: nil, resultCode: nil, triggerSource: nil),
                now: harness.now)
        }
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("Speak lasts about 60 ms per character, at least 1000 ms")
    func speakDuration() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let short = harness.request("Speak", ["ttsChunks": [["text": "Hi", "type": "TEXT"]]], session: session, on: connection)
        harness.advance(by: .milliseconds(999))
        #expect(harness.response(short, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        #expect(harness.response(short, on: connection)?.resultCode == "SUCCESS")
        let text = String(repeating: "a", count: 50)
        let long = harness.request("Speak", ["ttsChunks": [["text": .string(text), "type": "TEXT"]]], session: session, on: connection)
        harness.advance(by: .milliseconds(2999))
        #expect(harness.response(long, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        #expect(harness.response(long, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.systemContext == "MAIN")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("ScrollableMessage: HMI_OBSCURED, SUCCESS after its 30000 ms default timeout")
    func scrollableMessage() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let message = harness.request("ScrollableMessage", ["scrollableMessageBody": "Long text"], session: session, on: connection)
        #expect(harness.unit.apps[session]!.systemContext == "HMI_OBSCURED")
        harness.advance(by: .milliseconds(29_999))
        #expect(harness.response(message, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        #expect(harness.response(message, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.systemContext == "MAIN")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("Slider: TIMED_OUT with the initial position after 10000 ms; answered with a position SUCCESS; checks position and footer")
    func slider() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let slider = harness.request("Slider", ["numTicks": 5, "position": 2, "sliderHeader": "Volume"], session: session, on: connection)
        #expect(harness.unit.apps[session]!.systemContext == "HMI_OBSCURED")
        harness.advance(by: .milliseconds(9999))
        #expect(harness.response(slider, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        let timedOut = try #require(harness.response(slider, on: connection))
        #expect(timedOut.resultCode == "TIMED_OUT")
        #expect(timedOut.success == false)
        #expect(timedOut.parameters["sliderPosition"] == 2)

        let answered = harness.request(
            "Slider", ["numTicks": 5, "position": 2, "sliderHeader": "Volume", "timeout": 5000], session: session, on: connection)
        #expect(throws: SimulatorControlError.self) {
            try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: nil, sliderPosition: 6, resultCode: nil, triggerSource: nil), now: harness.now)
        }
        let (sent, actions) = try harness.unit.answerInteraction(
            appID: "demo-1", InteractionAnswer(choiceID: nil, sliderPosition: 4, resultCode: nil, triggerSource: nil), now: harness.now)
        harness.apply(actions)
        #expect(sent["sliderPosition"] == 4)
        let response = try #require(harness.response(answered, on: connection))
        #expect(response.resultCode == "SUCCESS")
        #expect(response.parameters["sliderPosition"] == 4)

        let reply4 = harness.call("Slider", ["numTicks": 3, "position": 4, "sliderHeader": "X"], session: session, on: connection)
        #expect(reply4?.resultCode == "INVALID_DATA")
        let reply5 = harness.call(
            "Slider", ["numTicks": 3, "position": 1, "sliderHeader": "X", "sliderFooter": ["a", "b"]], session: session, on: connection)
        #expect(reply5?.resultCode == "INVALID_DATA")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("SubtleAlert: SUCCESS after its duration, no system context change")
    func subtleAlert() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let statuses = harness.notifications("OnHMIStatus", session: session, on: connection).count
        let alert = harness.request("SubtleAlert", ["alertText1": "Psst", "duration": 3000], session: session, on: connection)
        #expect(harness.unit.apps[session]!.screen.overlay?["function"] == "SubtleAlert")
        harness.advance(by: .milliseconds(3000))
        #expect(harness.response(alert, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.notifications("OnHMIStatus", session: session, on: connection).count == statuses)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("PerformInteraction: unknown choice set INVALID_ID; VRSESSION while open; TIMED_OUT without a choice after 10000 ms")
    func performInteractionTimesOut() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply6 = harness.call("CreateInteractionChoiceSet", Self.choices, session: session, on: connection)
        #expect(reply6?.resultCode == "SUCCESS")
        let unknown = harness.call(
            "PerformInteraction", ["initialText": "Pick", "interactionMode": "BOTH", "interactionChoiceSetIDList": [100, 7]],
            session: session, on: connection)
        #expect(unknown?.resultCode == "INVALID_ID")
        _ = harness.call(
            "CreateInteractionChoiceSet", ["interactionChoiceSetID": 200, "choiceSet": [["choiceID": 20, "menuName": "Silent"]]],
            session: session, on: connection)
        let noVR = harness.call(
            "PerformInteraction", ["initialText": "Pick", "interactionMode": "VR_ONLY", "interactionChoiceSetIDList": [200]],
            session: session, on: connection)
        #expect(noVR?.resultCode == "INVALID_DATA")
        let statuses = harness.notifications("OnHMIStatus", session: session, on: connection).count
        let perform = harness.request(
            "PerformInteraction", ["initialText": "Pick", "interactionMode": "BOTH", "interactionChoiceSetIDList": [100]], session: session,
            on: connection)
        #expect(harness.unit.apps[session]!.systemContext == "VRSESSION")
        #expect(harness.unit.apps[session]!.screen.overlay?["function"] == "PerformInteraction")
        harness.advance(by: .milliseconds(9999))
        #expect(harness.response(perform, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        let response = try #require(harness.response(perform, on: connection))
        #expect(response.resultCode == "TIMED_OUT")
        #expect(response.success == false)
        #expect(response.parameters["choiceID"] == nil)
        #expect(harness.systemContexts(session: session, on: connection, from: statuses) == ["VRSESSION", "MAIN"])
        #expect(harness.unit.apps[session]!.screen.overlay == nil)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("PerformInteraction answered through the control API with a choice of its sets; other choices and bad codes are refused")
    func performInteractionAnswered() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        _ = harness.call("CreateInteractionChoiceSet", Self.choices, session: session, on: connection)
        let perform = harness.request(
            "PerformInteraction",
            ["initialText": "Pick", "interactionMode": "MANUAL_ONLY", "interactionChoiceSetIDList": [100], "timeout": 20000],
            session: session, on: connection)
        #expect(harness.unit.apps[session]!.systemContext == "HMI_OBSCURED")
        let none = InteractionAnswer(choiceID: nil, sliderPosition: nil, resultCode: nil, triggerSource: nil)
        #expect(throws: SimulatorControlError.self) { try harness.unit.answerInteraction(appID: "nobody", none, now: harness.now) }
        #expect(throws: SimulatorControlError.self) { try harness.unit.answerInteraction(appID: "demo-1", none, now: harness.now) }
        #expect(throws: SimulatorControlError.self) {
            try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: 9, sliderPosition: nil, resultCode: nil, triggerSource: nil), now: harness.now)
        }
        #expect(throws: SimulatorControlError.self) {
            try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: 2, sliderPosition: nil, resultCode: "GREAT", triggerSource: nil),
                now: harness.now)
        }
        #expect(harness.response(perform, on: connection) == nil)
        harness.advance(by: .seconds(3))
        let (sent, actions) = try harness.unit.answerInteraction(
            appID: "demo-1", InteractionAnswer(choiceID: 2, sliderPosition: nil, resultCode: nil, triggerSource: "KEYBOARD"),
            now: harness.now)
        harness.apply(actions)
        #expect(sent["choiceID"] == 2)
        let response = try #require(harness.response(perform, on: connection))
        #expect(response.resultCode == "SUCCESS")
        #expect(response.parameters["choiceID"] == 2)
        #expect(response.parameters["triggerSource"] == "KEYBOARD")
        #expect(harness.unit.apps[session]!.systemContext == "MAIN")
        #expect(throws: SimulatorControlError.self) {
            try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: 2, sliderPosition: nil, resultCode: nil, triggerSource: nil), now: harness.now)
        }
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("CancelInteraction: the open interaction is answered ABORTED, then CancelInteraction SUCCESS; nothing open is IGNORED")
    func cancelInteraction() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let alertID = Int64(harness.catalog.functionID(named: "Alert")!)
        let sliderID = Int64(harness.catalog.functionID(named: "Slider")!)
        let speakID = Int64(harness.catalog.functionID(named: "Speak")!)
        let notCancellable = harness.call("CancelInteraction", ["functionID": .int(speakID)], session: session, on: connection)
        #expect(notCancellable?.resultCode == "INVALID_DATA")
        let reply7 = harness.call("CancelInteraction", ["functionID": .int(alertID)], session: session, on: connection)
        #expect(reply7?.resultCode == "IGNORED")
        let alert = harness.request("Alert", ["alertText1": "Stop me", "cancelID": 7], session: session, on: connection)
        let reply8 = harness.call("CancelInteraction", ["functionID": .int(sliderID)], session: session, on: connection)
        #expect(reply8?.resultCode == "IGNORED")
        let reply9 = harness.call("CancelInteraction", ["functionID": .int(alertID), "cancelID": 8], session: session, on: connection)
        #expect(reply9?.resultCode == "IGNORED")
        let cancel = harness.request("CancelInteraction", ["functionID": .int(alertID), "cancelID": 7], session: session, on: connection)
        let aborted = try #require(harness.response(alert, on: connection))
        #expect(aborted.resultCode == "ABORTED")
        #expect(aborted.success == false)
        #expect(harness.response(cancel, on: connection)?.resultCode == "SUCCESS")
        let order = (harness.received[connection] ?? []).compactMap { item -> UInt32? in
            if case .rpc(_, let rpc) = item, rpc.rpcType == .response, rpc.correlationID == alert || rpc.correlationID == cancel {
                return rpc.correlationID
            }
            return nil
        }
        #expect(order == [alert, cancel])
        #expect(harness.unit.apps[session]!.systemContext == "MAIN")
        #expect(harness.unit.apps[session]!.screen.overlay == nil)
        harness.advance(by: .seconds(10))
        let reply10 = harness.call("CancelInteraction", ["functionID": .int(alertID)], session: session, on: connection)
        #expect(reply10?.resultCode == "IGNORED")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("An interaction answered with a result code through the control API; a bad code is invalidValue")
    func answerWithResultCode() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let message = harness.request("ScrollableMessage", ["scrollableMessageBody": "Text"], session: session, on: connection)
        do {
            _ = try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: nil, sliderPosition: nil, resultCode: "NOPE", triggerSource: nil),
                now: harness.now)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidValue)
        }
        do {
            // A Result the spec does not allow in ScrollableMessage's response.
            _ = try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: nil, sliderPosition: nil, resultCode: "DUPLICATE_NAME", triggerSource: nil),
                now: harness.now)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidValue)
        }
        let (_, actions) = try harness.unit.answerInteraction(
            appID: "DEMO-1", InteractionAnswer(choiceID: nil, sliderPosition: nil, resultCode: "ABORTED", triggerSource: nil),
            now: harness.now)
        harness.apply(actions)
        #expect(harness.response(message, on: connection)?.resultCode == "ABORTED")
        #expect(harness.response(message, on: connection)?.success == false)
        do {
            _ = try harness.unit.answerInteraction(
                appID: "demo-1", InteractionAnswer(choiceID: nil, sliderPosition: nil, resultCode: nil, triggerSource: nil),
                now: harness.now)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .noOpenInteraction)
        }
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }
}
