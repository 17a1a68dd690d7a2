import HeadUnitModel
import HeadlessHMI
import NIOCore
import SDLProtocol
import Testing

@Suite("The headless HMI's interactions: answered after their time or by the driver")
struct HMIInteractionTests {
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    static let appID: Int64 = 65537

    static func at(_ milliseconds: Int64) -> NIODeadline { start + .milliseconds(milliseconds) }

    /// A ready HMI with one registered app.
    static func hmi(timeScale: Double = 1) throws -> HeadlessHMI {
        var hmi = HeadlessHMI(answers: HMIAnswers(profile: .default), timeScale: timeScale)
        _ = try HeadlessHMITests.ready(&hmi)
        _ = try hmi.receive(
            .notification(
                method: "BasicCommunication.OnAppRegistered", params: ["application": ["appID": .int(appID), "appName": "Radio"]]))
        return hmi
    }

    static func context(_ value: String) -> HMIMessage {
        .notification(method: "UI.OnSystemContext", params: ["systemContext": .string(value), "appID": .int(appID)])
    }

    @Test("An Alert and its speech wait for their duration: ALERT context at once, SUCCESS and MAIN when it runs out")
    func alertAfterDuration() throws {
        var hmi = try Self.hmi()
        let alert = try hmi.receive(
            .request(id: 70, method: "UI.Alert", params: ["appID": .int(Self.appID), "duration": 3000, "alertStrings": []]), now: Self.at(0)
        )
        #expect(alert == [Self.context("ALERT")])
        // 20 characters at 60 ms: 1.2 s of speech.
        #expect(
            try hmi.receive(
                .request(
                    id: 71, method: "TTS.Speak",
                    params: ["appID": .int(Self.appID), "ttsChunks": [["text": "Twenty characters!!!", "type": "TEXT"]]]), now: Self.at(0)
            ).isEmpty)
        #expect(hmi.nextInteractionDeadline == Self.at(1200))
        #expect(hmi.expireInteractions(now: Self.at(1199)).isEmpty)
        #expect(hmi.expireInteractions(now: Self.at(1200)) == [.answer(id: 71, method: "TTS.Speak")])
        #expect(hmi.expireInteractions(now: Self.at(2999)).isEmpty)
        #expect(hmi.expireInteractions(now: Self.at(3000)) == [.answer(id: 70, method: "UI.Alert"), Self.context("MAIN")])
        #expect(hmi.interactions.isEmpty && hmi.nextInteractionDeadline == nil)
    }

    @Test("timeScale shortens the wait; a Slider and a PerformInteraction nobody answers end TIMED_OUT")
    func timedOut() throws {
        var hmi = try Self.hmi(timeScale: 0.1)
        _ = try hmi.receive(
            .request(id: 72, method: "UI.Slider", params: ["appID": .int(Self.appID), "numTicks": 5, "position": 2, "timeout": 10000]),
            now: Self.at(0))
        _ = try hmi.receive(
            .request(id: 73, method: "VR.PerformInteraction", params: ["appID": .int(Self.appID), "timeout": 5000]), now: Self.at(0))
        #expect(hmi.nextInteractionDeadline == Self.at(500))
        let expired = hmi.expireInteractions(now: Self.at(1000))
        #expect(
            expired == [
                .answer(id: 73, method: "VR.PerformInteraction", code: .timedOut),
                .answer(id: 72, method: "UI.Slider", code: .timedOut), Self.context("MAIN"),
            ])
    }

    @Test("UI.PerformAudioPassThru is held while Core records: HMI_OBSCURED, SUCCESS and MAIN at maxDuration or at UI.EndAudioPassThru")
    func audioPassThru() throws {
        var hmi = try Self.hmi()
        let request: [String: SDLJSON] = [
            "appID": .int(Self.appID), "maxDuration": 2000, "muteAudio": true, "audioPassThruDisplayTexts": [],
        ]
        #expect(
            try hmi.receive(.request(id: 90, method: "UI.PerformAudioPassThru", params: request), now: Self.at(0)) == [
                Self.context("HMI_OBSCURED")
            ])
        #expect(hmi.nextInteractionDeadline == Self.at(2000))
        #expect(hmi.expireInteractions(now: Self.at(1999)).isEmpty)
        #expect(hmi.expireInteractions(now: Self.at(2000)) == [.answer(id: 90, method: "UI.PerformAudioPassThru"), Self.context("MAIN")])

        _ = try hmi.receive(.request(id: 91, method: "UI.PerformAudioPassThru", params: request), now: Self.at(3000))
        let ended = try hmi.receive(.request(id: 92, method: "UI.EndAudioPassThru", params: [:]), now: Self.at(3500))
        #expect(
            ended == [
                .answer(id: 91, method: "UI.PerformAudioPassThru"), Self.context("MAIN"), .answer(id: 92, method: "UI.EndAudioPassThru"),
            ])
        #expect(hmi.interactions.isEmpty)
        #expect(
            try hmi.receive(.request(id: 93, method: "UI.EndAudioPassThru", params: [:]), now: Self.at(4000)) == [
                .answer(id: 93, method: "UI.EndAudioPassThru", code: .rejected)
            ])
    }

    static func performInteraction(_ hmi: inout HeadlessHMI, layout: String = "ICON_ONLY") throws -> [HMIMessage] {
        let choices: SDLJSON = [["choiceID": 1, "menuName": "Jazz"], ["choiceID": 2, "menuName": "Rock"]]
        _ = try hmi.receive(
            .request(id: 80, method: "VR.PerformInteraction", params: ["appID": .int(Self.appID), "timeout": 10000]), now: Self.at(0))
        return try hmi.receive(
            .request(
                id: 81, method: "UI.PerformInteraction",
                params: [
                    "appID": .int(Self.appID), "timeout": 10000, "choiceSet": choices, "interactionLayout": .string(layout),
                ]), now: Self.at(0))
    }

    @Test("PerformInteraction picked from the menu: VR ends ABORTED first, then UI answers the choice; by voice, the other way round")
    func performInteractionAnswered() throws {
        var hmi = try Self.hmi()
        #expect(try Self.performInteraction(&hmi) == [Self.context("HMI_OBSCURED")])
        #expect(hmi.interactions(ofApp: Self.appID).map(\.method) == ["VR.PerformInteraction", "UI.PerformInteraction"])
        #expect(throws: HMIError.self) { try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(choiceID: 9)) }
        #expect(throws: HMIError.self) { try hmi.answerInteraction(appID: Self.appID, InteractionAnswer()) }
        #expect(throws: HMIError.self) { try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(manualTextEntry: "typed")) }
        let menu = try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(choiceID: 2))
        #expect(
            menu == [
                .answer(id: 80, method: "VR.PerformInteraction", code: .aborted),
                .answer(id: 81, method: "UI.PerformInteraction", params: ["choiceID": 2]), Self.context("MAIN"),
            ])
        _ = try Self.performInteraction(&hmi)
        let voice = try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(choiceID: 1, triggerSource: "VR"))
        #expect(
            voice == [
                .answer(id: 81, method: "UI.PerformInteraction", code: .aborted), Self.context("MAIN"),
                .answer(id: 80, method: "VR.PerformInteraction", params: ["choiceID": 1]),
            ])
        #expect(throws: HMIError.self) { try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(choiceID: 1)) }
    }

    @Test("Typed text answers a KEYBOARD PerformInteraction; a Slider takes a position in range; an alert is dismissed with its speech")
    func otherAnswers() throws {
        var hmi = try Self.hmi()
        _ = try Self.performInteraction(&hmi, layout: "KEYBOARD")
        let typed = try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(manualTextEntry: "Main street"))
        #expect(
            typed == [
                .answer(id: 80, method: "VR.PerformInteraction", code: .aborted),
                .answer(id: 81, method: "UI.PerformInteraction", params: ["manualTextEntry": "Main street"]), Self.context("MAIN"),
            ])
        _ = try hmi.receive(
            .request(id: 90, method: "UI.Slider", params: ["appID": .int(Self.appID), "numTicks": 5, "position": 2]), now: Self.at(0))
        #expect { try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(sliderPosition: 6)) } throws: {
            ($0 as? HMIError)?.code == .invalidValue
        }
        #expect(
            try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(sliderPosition: 4))
                == [.answer(id: 90, method: "UI.Slider", params: ["sliderPosition": 4]), Self.context("MAIN")])
        _ = try hmi.receive(.request(id: 91, method: "UI.Alert", params: ["appID": .int(Self.appID), "duration": 5000]), now: Self.at(0))
        _ = try hmi.receive(
            .request(id: 92, method: "TTS.Speak", params: ["appID": .int(Self.appID), "ttsChunks": [["text": "Hi", "type": "TEXT"]]]),
            now: Self.at(0))
        #expect(
            try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(resultCode: "ABORTED"))
                == [
                    .answer(id: 91, method: "UI.Alert", code: .aborted), Self.context("MAIN"),
                    .answer(id: 92, method: "TTS.Speak", code: .aborted),
                ])
        #expect { try hmi.answerInteraction(appID: Self.appID, InteractionAnswer()) } throws: {
            ($0 as? HMIError)?.code == .noOpenInteraction
        }
        #expect { try hmi.answerInteraction(appID: 1, InteractionAnswer()) } throws: { ($0 as? HMIError)?.code == .unknownApp }
        _ = try hmi.receive(.request(id: 93, method: "UI.Alert", params: ["appID": .int(Self.appID)]), now: Self.at(0))
        #expect { try hmi.answerInteraction(appID: Self.appID, InteractionAnswer(resultCode: "FINE")) } throws: {
            ($0 as? HMIError)?.code == .invalidValue
        }
    }

    @Test("Core closes interactions: UI.CancelInteraction (ABORTED, then SUCCESS; IGNORED when none matches) and UI.ClosePopUp")
    func closedByCore() throws {
        var hmi = try Self.hmi()
        _ = try hmi.receive(.request(id: 100, method: "UI.Alert", params: ["appID": .int(Self.appID), "cancelID": 7]), now: Self.at(0))
        #expect(
            try hmi.receive(
                .request(id: 101, method: "UI.CancelInteraction", params: ["appID": .int(Self.appID), "functionID": 12, "cancelID": 8]))
                == [.answer(id: 101, method: "UI.CancelInteraction", code: .ignored)])
        #expect(
            try hmi.receive(
                .request(id: 102, method: "UI.CancelInteraction", params: ["appID": .int(Self.appID), "functionID": 12, "cancelID": 7]))
                == [
                    .answer(id: 100, method: "UI.Alert", code: .aborted), Self.context("MAIN"),
                    .answer(id: 102, method: "UI.CancelInteraction"),
                ])
        _ = try Self.performInteraction(&hmi)
        #expect(
            try hmi.receive(
                .request(id: 103, method: "UI.ClosePopUp", params: ["appID": .int(Self.appID), "methodName": "UI.PerformInteraction"]))
                == [
                    .answer(id: 81, method: "UI.PerformInteraction", code: .aborted), Self.context("MAIN"),
                    .answer(id: 103, method: "UI.ClosePopUp"),
                ])
        #expect(hmi.interactions(ofApp: Self.appID).map(\.method) == ["VR.PerformInteraction"])
        hmi.disconnected()
        #expect(hmi.interactions.isEmpty)
    }

    @Test("Vehicle data set by hand wins over the drive until removed with null, and reaches Core for the subscribed names")
    func vehicleOverrides() throws {
        var hmi = try Self.hmi()
        _ = try hmi.receive(
            .request(id: 110, method: "VehicleInfo.SubscribeVehicleData", params: ["appID": .int(Self.appID), "speed": true]))
        #expect { try hmi.overrideVehicleData(["speed": "fast"]) } throws: { ($0 as? HMIError)?.code == .invalidValue }
        #expect(
            try hmi.overrideVehicleData(["speed": 0, "rpm": 900]) == [
                .notification(method: "VehicleInfo.OnVehicleData", params: ["speed": 0])
            ])
        #expect(
            hmi.vehicleSample(["speed": 50, "fuelLevel": 40]) == [.notification(method: "VehicleInfo.OnVehicleData", params: ["speed": 0])])
        #expect(hmi.vehicleData["speed"] == 0 && hmi.vehicleData["rpm"] == 900 && hmi.vehicleData["fuelLevel"] == 40)
        _ = try hmi.overrideVehicleData(["speed": .null, "rpm": .null])
        #expect(hmi.vehicleData["rpm"] == nil)
        #expect(hmi.vehicleSample(["speed": 50]) == [.notification(method: "VehicleInfo.OnVehicleData", params: ["speed": 50])])
    }

    @Test(
        "Core's UI requests build the app's screen: menu and sub-menus (a sub-menu takes its commands along), media clock, properties, icon"
    )
    func screen() throws {
        var hmi = try Self.hmi()
        let app: SDLJSON = .int(Self.appID)
        for (id, method, params) in [
            (120, "UI.AddSubMenu", ["appID": app, "menuID": 10, "menuParams": ["menuName": "Genres"]]),
            (121, "UI.AddCommand", ["appID": app, "cmdID": 1, "menuParams": ["menuName": "Jazz", "parentID": 10]]),
            (122, "UI.AddCommand", ["appID": app, "cmdID": 2, "menuParams": ["menuName": "Stop"]]),
            (
                123, "UI.SetMediaClockTimer",
                ["appID": app, "updateMode": "COUNTUP", "startTime": ["hours": 0, "minutes": 1, "seconds": 2]]
            ),
            (124, "UI.SetGlobalProperties", ["appID": app, "menuTitle": "Radio"]),
            (125, "UI.SetAppIcon", ["appID": app, "syncFileName": ["value": "icon.png", "imageType": "DYNAMIC"]]),
        ] as [(Int64, String, [String: SDLJSON])] {
            #expect(try hmi.receive(.request(id: id, method: method, params: params)) == [.answer(id: id, method: method)])
        }
        var screen = try #require(hmi.apps[Self.appID]?.screen)
        #expect(screen.json["menu"]?.arrayValue?.compactMap { $0["menuParams"]?["menuName"]?.stringValue } == ["Jazz", "Stop"])
        #expect(screen.json["subMenus"]?.arrayValue?.count == 1)
        #expect(screen.mediaClock?["updateMode"] == "COUNTUP")
        #expect(screen.globalProperties["menuTitle"] == "Radio")
        #expect(screen.icon?["value"] == "icon.png")
        _ = try hmi.receive(.request(id: 126, method: "UI.DeleteSubMenu", params: ["appID": app, "menuID": 10]))
        _ = try hmi.receive(.request(id: 127, method: "UI.DeleteCommand", params: ["appID": app, "cmdID": 2]))
        screen = try #require(hmi.apps[Self.appID]?.screen)
        #expect(screen.commands.isEmpty && screen.subMenus.isEmpty)
    }
}
