import SDLManagers
import SDLProtocol
import Testing

@Suite("Keyboard interactions and alerts")
struct KeyboardAndAlertTests {
    @Test("A keyboard sets its properties once (again only when they change) and answers with the typed text")
    func keyboard() throws {
        var manager = SDLChoiceSetManager()
        let keyboard = SDLKeyboard(layout: "QWERTY", keypressMode: "RESEND_CURRENT_ENTRY", autoComplete: ["Paris", "Perth"])
        let first = try manager.plan(SDLInteraction(title: "City", keyboard: keyboard, timeout: 30))
        manager.accept(first)
        #expect(
            first.plan.steps.map(\.description) == [
                #"SetGlobalProperties {"keyboardProperties":{"autoCompleteList":["Paris","Perth"],"keyboardLayout":"QWERTY","keypressMode":"RESEND_CURRENT_ENTRY"}}"#,
                #"PerformInteraction {"cancelID":1,"initialText":"City","interactionChoiceSetIDList":[],"interactionLayout":"KEYBOARD","interactionMode":"MANUAL_ONLY","timeout":30000}"#,
            ])
        let again = try manager.plan(SDLInteraction(title: "City again", keyboard: keyboard))
        manager.accept(again)
        #expect(again.plan.requests.map(\.functionName) == ["PerformInteraction"])
        let changed = try manager.plan(SDLInteraction(title: "Code", keyboard: SDLKeyboard(layout: "NUMERIC")))
        #expect(changed.plan.requests.map(\.functionName) == ["SetGlobalProperties", "PerformInteraction"])
        // An empty keyboard on a head unit never told anything sends no SetGlobalProperties.
        var fresh = SDLChoiceSetManager()
        #expect(
            try fresh.plan(SDLInteraction(title: "Text", keyboard: SDLKeyboard())).plan.requests.map(\.functionName) == [
                "PerformInteraction"
            ])

        let answer = try first.pending.answer(["resultCode": "SUCCESS", "manualTextEntry": "Paris", "triggerSource": "KEYBOARD"])
        #expect(answer.json == ["text": "Paris", "trigger": "KEYBOARD", "result": "SUCCESS"])
        let timedOut = try first.pending.answer(["resultCode": "TIMED_OUT"])
        #expect(timedOut.json == ["text": .null, "trigger": .null, "result": "TIMED_OUT"])
    }

    @Test("A keyboard is refused with choices, a VR mode, a layout or values outside their enums, by path")
    func keyboardValidation() {
        var manager = SDLChoiceSetManager()
        func path(_ interaction: SDLInteraction) -> String? {
            do throws(SDLManagerError) {
                _ = try manager.plan(interaction)
                return nil
            } catch {
                return error.path
            }
        }
        #expect(path(SDLInteraction(title: "T", choices: [SDLChoice(id: "a", text: "A")], keyboard: SDLKeyboard())) == "$.keyboard")
        #expect(path(SDLInteraction(title: "T", keyboard: SDLKeyboard(), mode: .vr)) == "$.mode")
        #expect(path(SDLInteraction(title: "T", keyboard: SDLKeyboard(), layout: "LIST_ONLY")) == "$.layout")
        #expect(path(SDLInteraction(title: "T", keyboard: SDLKeyboard(layout: "DVORAK"))) == "$.keyboard.layout")
        #expect(path(SDLInteraction(title: "T", keyboard: SDLKeyboard(limitedCharacters: ["ab"]))) == "$.keyboard.limitedCharacters[0]")
        #expect(path(SDLInteraction(title: "T", keyboard: SDLKeyboard(), timeout: 2)) == "$.timeout")
        #expect(path(SDLInteraction(title: "T")) == "$.choices")
    }

    @Test("An alert: images first, texts, speech, buttons with ids from 32768 and their actions, a cancelID")
    func alertPlan() throws {
        var manager = SDLAlertManager()
        let alert = SDLAlert(
            text: ["Low fuel", "", "Find a station?"], speak: "Low fuel",
            softButtons: [
                SDLAlert.Button(id: "yes", text: "Yes", image: "pump.png"), SDLAlert.Button(id: "no", text: "No", action: "KEEP_CONTEXT"),
            ], icon: "0x29", duration: 8, playTone: true
        )
        let update = try manager.plan(alert, rpcSpecMajorVersion: 8)
        #expect(
            update.plan.steps.map(\.description) == [
                "ensureFile pump.png",
                #"Alert {"alertIcon":{"imageType":"STATIC","isTemplate":true,"value":"0x29"},"alertText1":"Low fuel","alertText3":"Find a station?","cancelID":1,"duration":8000,"playTone":true,"softButtons":[{"image":{"imageType":"DYNAMIC","value":"pump.png"},"isHighlighted":false,"softButtonID":32768,"systemAction":"DEFAULT_ACTION","text":"Yes","type":"BOTH"},{"isHighlighted":false,"softButtonID":32769,"systemAction":"KEEP_CONTEXT","text":"No","type":"TEXT"}],"ttsChunks":[{"text":"Low fuel","type":"TEXT"}]}"#,
            ])
        #expect(update.pending.cancelRequest.description == #"CancelInteraction {"cancelID":1,"functionID":12}"#)
        // The next alert's buttons take the next ids: a late press of "yes" is not the new alert's.
        let next = try manager.plan(SDLAlert(softButtons: [SDLAlert.Button(id: "ok", text: "OK")]), rpcSpecMajorVersion: 8)
        #expect(next.pending.buttons == [32770: "ok"])
    }

    @Test("How an alert ended: the first press of one of its buttons before the response, or none")
    func alertAnswer() {
        let pending = SDLPendingAlert(functionName: "Alert", cancelID: 4, buttons: [32770: "yes", 32771: "no"])
        let press = { (id: Int64) -> (name: String, parameters: SDLJSON) in
            ("OnButtonPress", ["buttonName": "CUSTOM_BUTTON", "customButtonID": .int(id), "buttonPressMode": "SHORT"])
        }
        let notifications = [("OnVehicleData", ["speed": 10] as SDLJSON), press(7), press(32771), press(32770)].map {
            (name: $0.0, parameters: $0.1)
        }
        #expect(
            pending.answer(response: ["resultCode": "SUCCESS"], notifications: notifications)
                == SDLAlertAnswer(button: "no", result: "SUCCESS"))
        #expect(
            pending.answer(response: ["resultCode": "SUCCESS"], notifications: [press(7)]) == SDLAlertAnswer(button: nil, result: "SUCCESS")
        )
        #expect(pending.answer(response: ["resultCode": "ABORTED"], notifications: []) == SDLAlertAnswer(button: nil, result: "ABORTED"))
        #expect(pending.answer(response: ["resultCode": "REJECTED"], notifications: []) == nil)
    }

    @Test("Alerts are refused by path: nothing to show, too many lines or buttons, SubtleAlert before RPC spec 7 or with a tone")
    func alertValidation() {
        func path(_ alert: SDLAlert, spec: Int = 8) -> String? {
            do throws(SDLManagerError) {
                try alert.validate(rpcSpecMajorVersion: spec)
                return nil
            } catch {
                return error.path
            }
        }
        #expect(path(SDLAlert(text: ["Hi"])) == nil)
        #expect(path(SDLAlert()) == "$")
        #expect(path(SDLAlert(text: ["a", "b", "c", "d"])) == "$.text")
        #expect(path(SDLAlert(text: ["a", "b", "c"], subtle: true)) == "$.text")
        #expect(path(SDLAlert(text: ["a"], duration: 11)) == "$.duration")
        #expect(path(SDLAlert(text: ["a"], subtle: true), spec: 6) == "$.subtle")
        #expect(path(SDLAlert(text: ["a"], playTone: true, subtle: true)) == "$.playTone")
        #expect(
            path(SDLAlert(softButtons: [SDLAlert.Button(id: "a", text: "A"), SDLAlert.Button(id: "a", text: "B")])) == "$.softButtons[1].id"
        )
        #expect(path(SDLAlert(softButtons: [SDLAlert.Button(id: "a")])) == "$.softButtons[0]")
        #expect(path(SDLAlert(softButtons: [SDLAlert.Button(id: "a", text: "A", action: "CLOSE")])) == "$.softButtons[0].action")
        let five = (1...5).map { SDLAlert.Button(id: "b\($0)", text: "B\($0)") }
        #expect(path(SDLAlert(softButtons: five)) == "$.softButtons")
    }

    @Test("A SubtleAlert has two lines, no tone, and is cancelled with functionID 64")
    func subtle() throws {
        var manager = SDLAlertManager()
        let update = try manager.plan(SDLAlert(text: ["Track", "changed"], subtle: true), rpcSpecMajorVersion: 7)
        #expect(update.plan.requests.map(\.description) == [#"SubtleAlert {"alertText1":"Track","alertText2":"changed","cancelID":1}"#])
        #expect(update.pending.cancelRequest.parameters["functionID"] == 64)
    }
}
