import SDLProtocol

/// How an interaction ended, by the user's ids: `{"choice": id | null, "trigger", "result"}`.
/// A timeout or a cancel is an answer (`choice` null, `result` TIMED_OUT or ABORTED), not an
/// error; so is a success without a `choiceID` (`result` SUCCESS, `choice` null), which
/// sdl_javascript_suite never reports.
public struct SDLInteractionAnswer: Sendable, Hashable, Codable {
    public var choice: String?
    /// `triggerSource`: MENU, VR or KEYBOARD; `nil` when the head unit names none.
    public var trigger: String?
    /// The PerformInteraction result code: SUCCESS, WARNINGS, TIMED_OUT or ABORTED.
    public var result: String

    public init(choice: String?, trigger: String?, result: String) {
        self.choice = choice
        self.trigger = trigger
        self.result = result
    }

    public var json: SDLJSON {
        ["choice": choice.map { .string($0) } ?? .null, "trigger": trigger.map { .string($0) } ?? .null, "result": .string(result)]
    }
}
