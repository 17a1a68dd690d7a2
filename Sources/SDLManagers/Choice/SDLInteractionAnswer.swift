import SDLProtocol

/// How an interaction ended, by the user's ids: `{"choice": id | null, "trigger", "result"}`,
/// and for a keyboard `{"text": typed | null, "trigger", "result"}`.
/// A timeout or a cancel is an answer (`choice` null, `result` TIMED_OUT or ABORTED), not an
/// error; so is a success without a `choiceID` (`result` SUCCESS, `choice` null), which
/// sdl_javascript_suite never reports.
public struct SDLInteractionAnswer: Sendable, Hashable, Codable {
    public var choice: String?
    /// `manualTextEntry`: what the user typed.
    public var text: String?
    /// `triggerSource`: MENU, VR or KEYBOARD; `nil` when the head unit names none.
    public var trigger: String?
    /// The PerformInteraction result code: SUCCESS, WARNINGS, TIMED_OUT or ABORTED.
    public var result: String
    public var isKeyboard: Bool

    public init(choice: String?, text: String? = nil, trigger: String?, result: String, isKeyboard: Bool = false) {
        self.choice = choice
        self.text = text
        self.trigger = trigger
        self.result = result
        self.isKeyboard = isKeyboard
    }

    public var json: SDLJSON {
        var members: [String: SDLJSON] = ["trigger": trigger.map { .string($0) } ?? .null, "result": .string(result)]
        if isKeyboard {
            members["text"] = text.map { .string($0) } ?? .null
        } else {
            members["choice"] = choice.map { .string($0) } ?? .null
            if let text { members["text"] = .string(text) }
        }
        return .object(members)
    }
}
