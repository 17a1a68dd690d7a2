import SDLClient
import SDLProtocol

/// Choice sets and PerformInteraction answered by the driver (MOBILE_API.xml 8.0.0).
enum InteractionCases {
    static let all = [createChoiceSet, performInteraction]

    static func choiceSet(_ id: Int64, first: Int64) -> SDLJSON {
        [
            "interactionChoiceSetID": .int(id),
            "choiceSet": [
                ["choiceID": .int(first), "menuName": "FM 1"],
                ["choiceID": .int(first + 1), "menuName": "FM 2"],
            ],
        ]
    }

    /// CreateInteractionChoiceSet: SUCCESS; the same id again: INVALID_ID; then deleted.
    static let createChoiceSet = ConformanceCase("choice.create", "CreateInteractionChoiceSet, a used id: INVALID_ID") { context in
        try await context.activate()
        try await context.request("CreateInteractionChoiceSet", choiceSet(3001, first: 3101))
        try await context.request("CreateInteractionChoiceSet", choiceSet(3001, first: 3201), expect: ["INVALID_ID"])
        try await context.request("DeleteInteractionChoiceSet", ["interactionChoiceSetID": 3001])
    }

    /// PerformInteraction (MANUAL_ONLY) over a choice set; once OnHMIStatus says it is shown
    /// (systemContext HMI_OBSCURED), the driver picks the second choice: SUCCESS with that
    /// `choiceID` and `triggerSource` MENU.
    static let performInteraction = ConformanceCase(
        "choice.perform", "PerformInteraction answered by the driver", needsDriver: true, deadline: .seconds(25)
    ) { context in
        let driver = try context.requireDriver()
        try await context.activate()
        try await context.request("CreateInteractionChoiceSet", choiceSet(3002, first: 3301))
        let mark = try await context.mark()
        let response = try await withThrowingTaskGroup(of: SDLJSON?.self) { group in
            group.addTask {
                try await context.request(
                    "PerformInteraction",
                    [
                        "initialText": "Pick FM 2", "interactionMode": "MANUAL_ONLY", "interactionChoiceSetIDList": [3002],
                        "timeout": 10000, "interactionLayout": "LIST_ONLY",
                    ], timeout: .seconds(20))
            }
            group.addTask {
                // The choices can be picked once they are shown, which the app learns from
                // OnHMIStatus systemContext HMI_OBSCURED (MOBILE_API.xml SystemContext: an
                // overlay obscures the app). An answer before that reaches only the part of the
                // interaction already open (SDL Core asks its HMI for a VR and a UI part), and
                // the UI part then runs its time: TIMED_OUT.
                try await context.notification("OnHMIStatus", after: mark, describing: "OnHMIStatus systemContext HMI_OBSCURED") {
                    $0["systemContext"]?.stringValue == "HMI_OBSCURED"
                }
                try await context.actWhenReady { try await driver.answerInteraction(choiceID: 3302, appID: context.app.appID) }
                return nil
            }
            var response: SDLJSON?
            for try await result in group where result != nil { response = result }
            return response ?? [:]
        }
        try context.expect("PerformInteraction choiceID", response["choiceID"]?.intValue, equals: 3302)
        try context.expect("PerformInteraction triggerSource", response["triggerSource"]?.stringValue, equals: "MENU")
        try await context.request("DeleteInteractionChoiceSet", ["interactionChoiceSetID": 3002])
    }
}
