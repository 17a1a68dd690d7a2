/// A declared interaction (the `interactions` resource): a title, the choices or a keyboard, how
/// the user answers and for how long.
public struct SDLInteraction: Sendable, Hashable, Codable {
    /// The gateway's names for MOBILE_API.xml `InteractionMode`.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
        case manual = "MANUAL"
        case vr = "VR"
        case both = "BOTH"

        /// The `InteractionMode` element.
        public var interactionMode: String {
            switch self {
            case .manual: "MANUAL_ONLY"
            case .vr: "VR_ONLY"
            case .both: "BOTH"
            }
        }
    }

    /// `PerformInteraction.initialText`.
    public var title: String
    /// The choices; empty for a keyboard interaction.
    public var choices: [SDLChoice]
    /// A keyboard instead of choices (``SDLKeyboard``).
    public var keyboard: SDLKeyboard?
    public var mode: Mode
    /// A `LayoutMode` (`LIST_ONLY`, `ICON_ONLY` …); the head unit's default when absent.
    public var layout: String?
    /// Seconds, 5…100 (`PerformInteraction.timeout` is 5000…100000 ms); the head unit's default
    /// (10 s) when absent.
    public var timeout: Int?
    /// Spoken when the interaction starts (`initialPrompt`, one TEXT chunk).
    public var initialPrompt: String?

    /// The most choice sets one PerformInteraction lists (`interactionChoiceSetIDList` maxsize).
    public static let maximumChoices = 100
    /// The `LayoutMode`s for a choice list (KEYBOARD belongs to the keyboard interaction).
    public static let layouts: Set<String> = ["ICON_ONLY", "ICON_WITH_SEARCH", "LIST_ONLY", "LIST_WITH_SEARCH"]
    public static let timeoutRange = 5...100

    public init(
        title: String, choices: [SDLChoice] = [], keyboard: SDLKeyboard? = nil, mode: Mode = .manual, layout: String? = nil,
        timeout: Int? = nil, initialPrompt: String? = nil
    ) {
        self.title = title
        self.choices = choices
        self.keyboard = keyboard
        self.mode = mode
        self.layout = layout
        self.timeout = timeout
        self.initialPrompt = initialPrompt
    }

    private enum CodingKeys: String, CodingKey { case title, choices, keyboard, mode, layout, timeout, initialPrompt }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        choices = try container.decodeIfPresent([SDLChoice].self, forKey: .choices) ?? []
        keyboard = try container.decodeIfPresent(SDLKeyboard.self, forKey: .keyboard)
        mode = try container.decodeIfPresent(Mode.self, forKey: .mode) ?? .manual
        layout = try container.decodeIfPresent(String.self, forKey: .layout)
        timeout = try container.decodeIfPresent(Int.self, forKey: .timeout)
        initialPrompt = try container.decodeIfPresent(String.self, forKey: .initialPrompt)
    }
}
