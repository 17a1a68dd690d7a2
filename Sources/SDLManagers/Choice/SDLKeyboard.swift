import SDLProtocol

/// A declared keyboard interaction (`{"title", "keyboard": {…}}` of the `interactions`
/// resource): PerformInteraction with `interactionLayout` KEYBOARD and no choice sets, after a
/// SetGlobalProperties with the keyboard's `keyboardProperties` when they differ from those last
/// set. The typed text comes back in the response's `manualTextEntry`.
public struct SDLKeyboard: Sendable, Hashable, Codable {
    /// `KeyboardLayout`: QWERTY, QWERTZ, AZERTY or NUMERIC.
    public var layout: String?
    /// `KeypressMode`: SINGLE_KEYPRESS, QUEUE_KEYPRESSES or RESEND_CURRENT_ENTRY (what
    /// `keyboardInput` events carry while the user types).
    public var keypressMode: String?
    /// `limitedCharacterList`: the only keys enabled.
    public var limitedCharacters: [String]?
    /// `autoCompleteList` (RPC spec 6.0).
    public var autoComplete: [String]?
    /// `maskInputCharacters` (RPC spec 7.1): ENABLE_INPUT_KEY_MASK, DISABLE_INPUT_KEY_MASK or
    /// USER_CHOICE_INPUT_KEY_MASK.
    public var mask: String?
    /// `language`, e.g. EN-US.
    public var language: String?

    public static let layouts: Set<String> = ["QWERTY", "QWERTZ", "AZERTY", "NUMERIC"]
    public static let keypressModes: Set<String> = ["SINGLE_KEYPRESS", "QUEUE_KEYPRESSES", "RESEND_CURRENT_ENTRY"]
    public static let masks: Set<String> = ["ENABLE_INPUT_KEY_MASK", "DISABLE_INPUT_KEY_MASK", "USER_CHOICE_INPUT_KEY_MASK"]

    public init(
        layout: String? = nil, keypressMode: String? = nil, limitedCharacters: [String]? = nil, autoComplete: [String]? = nil,
        mask: String? = nil, language: String? = nil
    ) {
        self.layout = layout
        self.keypressMode = keypressMode
        self.limitedCharacters = limitedCharacters
        self.autoComplete = autoComplete
        self.mask = mask
        self.language = language
    }

    /// Refuses values outside their enums, naming the path; an empty or too long
    /// `limitedCharacters` (1…100 single characters), more than 100 `autoComplete` entries.
    public func validate(path: String) throws(SDLManagerError) {
        func check(_ value: String?, _ allowed: Set<String>, _ member: String, _ name: String) throws(SDLManagerError) {
            if let value, !allowed.contains(value) {
                throw SDLManagerError(
                    .unsupportedValue, path: "\(path).\(member)", "\(value) is not a \(name) (\(allowed.sorted().joined(separator: ", ")))")
            }
        }
        try check(layout, Self.layouts, "layout", "KeyboardLayout")
        try check(keypressMode, Self.keypressModes, "keypressMode", "KeypressMode")
        try check(mask, Self.masks, "mask", "KeyboardInputMask")
        if let limitedCharacters {
            if !(1...100).contains(limitedCharacters.count) {
                throw SDLManagerError(.tooMany, path: "\(path).limitedCharacters", "\(limitedCharacters.count) characters, 1…100")
            }
            if let index = limitedCharacters.firstIndex(where: { $0.count != 1 }) {
                throw SDLManagerError(.unsupportedValue, path: "\(path).limitedCharacters[\(index)]", "each entry is one character")
            }
        }
        if let autoComplete, autoComplete.count > 100 {
            throw SDLManagerError(.tooMany, path: "\(path).autoComplete", "\(autoComplete.count) entries, at most 100")
        }
    }

    /// The `KeyboardProperties` struct.
    public var properties: SDLJSON {
        var members: [String: SDLJSON] = [:]
        if let layout { members["keyboardLayout"] = .string(layout) }
        if let keypressMode { members["keypressMode"] = .string(keypressMode) }
        if let limitedCharacters { members["limitedCharacterList"] = .array(limitedCharacters.map { .string($0) }) }
        if let autoComplete { members["autoCompleteList"] = .array(autoComplete.map { .string($0) }) }
        if let mask { members["maskInputCharacters"] = .string(mask) }
        if let language { members["language"] = .string(language) }
        return .object(members)
    }
}
