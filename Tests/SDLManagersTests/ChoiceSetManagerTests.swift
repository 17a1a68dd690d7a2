import SDLManagers
import SDLProtocol
import Testing

@Suite("Choice sets and interactions")
struct ChoiceSetManagerTests {
    @Test("One choice set per choice, reused by content; one PerformInteraction with a cancelID")
    func cacheReuse() throws {
        var manager = SDLChoiceSetManager()
        let first = try manager.plan(
            SDLInteraction(
                title: "Station", choices: [SDLChoice(id: "fm1", text: "FM 1"), SDLChoice(id: "fm2", text: "FM 2", image: "fm2.png")],
                timeout: 15, initialPrompt: "Pick a station"
            ))
        manager.accept(first)
        #expect(
            first.plan.steps.map(\.description) == [
                #"CreateInteractionChoiceSet {"choiceSet":[{"choiceID":1,"menuName":"FM 1"}],"interactionChoiceSetID":1}"#,
                "ensureFile fm2.png",
                #"CreateInteractionChoiceSet {"choiceSet":[{"choiceID":2,"image":{"imageType":"DYNAMIC","value":"fm2.png"},"menuName":"FM 2"}],"interactionChoiceSetID":2}"#,
                #"PerformInteraction {"cancelID":1,"initialPrompt":[{"text":"Pick a station","type":"TEXT"}],"initialText":"Station","interactionChoiceSetIDList":[1,2],"interactionMode":"MANUAL_ONLY","timeout":15000}"#,
            ])
        // FM 2 again under another user id reuses set 2; FM 3 is new.
        let second = try manager.plan(
            SDLInteraction(
                title: "Again", choices: [SDLChoice(id: "two", text: "FM 2", image: "fm2.png"), SDLChoice(id: "fm3", text: "FM 3")],
                layout: "LIST_ONLY"
            ))
        manager.accept(second)
        #expect(
            second.plan.steps.map(\.description) == [
                #"CreateInteractionChoiceSet {"choiceSet":[{"choiceID":3,"menuName":"FM 3"}],"interactionChoiceSetID":3}"#,
                #"PerformInteraction {"cancelID":2,"initialText":"Again","interactionChoiceSetIDList":[2,3],"interactionLayout":"LIST_ONLY","interactionMode":"MANUAL_ONLY"}"#,
            ])
        #expect(second.pending == SDLPendingInteraction(cancelID: 2, choices: [2: "two", 3: "fm3"]))
        #expect(second.pending.cancelRequest.description == #"CancelInteraction {"cancelID":2,"functionID":10}"#)
        // After a head unit reset the sets are created again.
        manager.headUnitReset()
        let third = try manager.plan(SDLInteraction(title: "Once more", choices: [SDLChoice(id: "fm1", text: "FM 1")]))
        #expect(third.plan.requests.map(\.functionName) == ["CreateInteractionChoiceSet", "PerformInteraction"])
        #expect(third.plan.requests[0].parameters["interactionChoiceSetID"] == 4)
    }

    @Test("A full cache deletes the least recently used set the interaction does not show")
    func eviction() throws {
        var manager = SDLChoiceSetManager(capacity: 100)
        let hundred = (1...100).map { SDLChoice(id: "c\($0)", text: "Choice \($0)") }
        manager.accept(try manager.plan(SDLInteraction(title: "Many", choices: hundred)))
        manager.accept(try manager.plan(SDLInteraction(title: "One", choices: [hundred[0]])))
        let update = try manager.plan(SDLInteraction(title: "New", choices: [SDLChoice(id: "n", text: "New")]))
        #expect(
            update.plan.steps.map(\.description).prefix(2) == [
                #"DeleteInteractionChoiceSet {"interactionChoiceSetID":2}"#,
                #"CreateInteractionChoiceSet {"choiceSet":[{"choiceID":101,"menuName":"New"}],"interactionChoiceSetID":101}"#,
            ])
        #expect(update.cache.sets.count == 100)
    }

    @Test("Answers: a choice, a success without choiceID, a timeout and a cancel are results")
    func answers() throws {
        let pending = SDLPendingInteraction(cancelID: 7, choices: [2: "fm2", 3: "fm3"])
        #expect(
            try pending.answer(["success": true, "resultCode": "SUCCESS", "choiceID": 3, "triggerSource": "VR"]).json
                == ["choice": "fm3", "trigger": "VR", "result": "SUCCESS"])
        #expect(
            try pending.answer(["success": true, "resultCode": "SUCCESS"]).json == ["choice": nil, "trigger": nil, "result": "SUCCESS"])
        #expect(
            try pending.answer(["success": false, "resultCode": "TIMED_OUT"])
                == SDLInteractionAnswer(choice: nil, trigger: nil, result: "TIMED_OUT"))
        #expect(
            try pending.answer(["success": false, "resultCode": "ABORTED"])
                == SDLInteractionAnswer(choice: nil, trigger: nil, result: "ABORTED"))
        #expect(throws: SDLManagerError(.interactionFailed, path: "$", "PerformInteraction answered REJECTED")) {
            try pending.answer(["success": false, "resultCode": "REJECTED"])
        }
        #expect(throws: SDLManagerError(.unknownChoice, path: "$.choiceID", "choiceID 9 was not presented")) {
            try pending.answer(["success": true, "resultCode": "SUCCESS", "choiceID": 9, "triggerSource": "MENU"])
        }
    }
}
