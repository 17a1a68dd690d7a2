/// Why a declaration was refused: ``code`` is stable (the HTTP layer maps every code to a 422
/// problem), ``path`` names the offending field as a JSON path (`$.softButtons[1].id`).
public struct SDLManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// More items than allowed (text fields, soft buttons for the display, choices …).
        public static let tooMany = Code(rawValue: "tooMany")
        /// Two siblings share a user id.
        public static let duplicateID = Code(rawValue: "duplicateID")
        /// Two siblings share a title, a text or a voice command (the head unit would answer
        /// DUPLICATE_NAME).
        public static let duplicateName = Code(rawValue: "duplicateName")
        /// A soft button's `state` names none of its states.
        public static let unknownState = Code(rawValue: "unknownState")
        /// A template, layout, alignment or mode the display does not offer.
        public static let unsupportedValue = Code(rawValue: "unsupportedValue")
        /// A menu deeper than the head unit allows.
        public static let tooDeep = Code(rawValue: "tooDeep")
        /// A required value is empty or missing (an id, a title, a state's text and image).
        public static let missingValue = Code(rawValue: "missingValue")
        /// An interaction answer named a choice id that was not presented.
        public static let unknownChoice = Code(rawValue: "unknownChoice")
        /// PerformInteraction failed with a result code other than TIMED_OUT or ABORTED.
        public static let interactionFailed = Code(rawValue: "interactionFailed")
        /// An id space (cmdID, menuID, softButtonID, choiceID, cancelID) is used up.
        public static let idsExhausted = Code(rawValue: "idsExhausted")
    }

    public var code: Code
    /// A JSON path such as `$.menu[0].children[2].title`; `$` for the whole declaration.
    public var path: String
    public var detail: String

    public init(_ code: Code, path: String, _ detail: String) {
        self.code = code
        self.path = path
        self.detail = detail
    }

    public var description: String { "\(code) at \(path): \(detail)" }
}
