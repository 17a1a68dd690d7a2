import SDLProtocol

/// A PerformInteraction the driver sent: its `cancelID` and which user id each `choiceID`
/// stands for, to read the response by.
public struct SDLPendingInteraction: Sendable, Hashable {
    public var cancelID: Int
    /// `choiceID` → the user's choice id.
    public var choices: [Int: String]
    /// A keyboard interaction: the answer is the typed text (`manualTextEntry`).
    public var isKeyboard: Bool

    /// The result codes that end an interaction without it being an error.
    public static let answeredResults: Set<String> = ["SUCCESS", "WARNINGS", "TIMED_OUT", "ABORTED"]

    public init(cancelID: Int, choices: [Int: String], isKeyboard: Bool = false) {
        self.cancelID = cancelID
        self.choices = choices
        self.isKeyboard = isKeyboard
    }

    /// Reads a PerformInteraction response's parameters (`resultCode`, `choiceID`,
    /// `triggerSource`, `manualTextEntry`). TIMED_OUT and ABORTED answer with no choice; the
    /// typed text is read on any interaction that has one; another failure is
    /// `interactionFailed`; a `choiceID` this interaction did not present is `unknownChoice`.
    public func answer(_ response: SDLJSON) throws(SDLManagerError) -> SDLInteractionAnswer {
        let result = response["resultCode"]?.stringValue ?? "GENERIC_ERROR"
        guard Self.answeredResults.contains(result) else {
            throw SDLManagerError(.interactionFailed, path: "$", "PerformInteraction answered \(result)")
        }
        let text = response["manualTextEntry"]?.stringValue
        guard result == "SUCCESS" || result == "WARNINGS" else {
            return SDLInteractionAnswer(choice: nil, text: text, trigger: nil, result: result, isKeyboard: isKeyboard)
        }
        let trigger = response["triggerSource"]?.stringValue
        guard let choiceID = response["choiceID"]?.intValue else {
            return SDLInteractionAnswer(choice: nil, text: text, trigger: trigger, result: result, isKeyboard: isKeyboard)
        }
        guard let choice = choices[Int(choiceID)] else {
            throw SDLManagerError(.unknownChoice, path: "$.choiceID", "choiceID \(choiceID) was not presented")
        }
        return SDLInteractionAnswer(choice: choice, text: text, trigger: trigger, result: result, isKeyboard: isKeyboard)
    }

    /// The CancelInteraction request that closes this interaction (`functionID` 10 is
    /// PerformInteraction, docs/protocol.md §g).
    public var cancelRequest: SDLPlannedRequest {
        SDLPlannedRequest("CancelInteraction", ["functionID": 10, "cancelID": .int(Int64(cancelID))])
    }
}
