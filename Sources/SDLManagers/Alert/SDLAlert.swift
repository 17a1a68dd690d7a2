/// A declared alert (the `alerts` resource): up to three lines of text, something to say, up to
/// four soft buttons by the user's ids, an icon. It becomes one Alert (MOBILE_API.xml `Alert`) or,
/// with ``subtle``, one SubtleAlert (RPC spec 7.0: two lines, two buttons, no tone and no
/// progress indicator).
public struct SDLAlert: Sendable, Hashable, Codable {
    /// A soft button of the alert: the user's id, a text or an image (or both), and what pressing
    /// it does to the alert (`SystemAction`: DEFAULT_ACTION and STEAL_FOCUS close it,
    /// KEEP_CONTEXT keeps it open).
    public struct Button: Sendable, Hashable, Codable {
        public var id: String
        public var text: String?
        public var image: String?
        public var action: String?

        public init(id: String, text: String? = nil, image: String? = nil, action: String? = nil) {
            self.id = id
            self.text = text
            self.image = image
            self.action = action
        }
    }

    /// `alertText1`…`alertText3` (SubtleAlert: two).
    public var text: [String]
    /// Spoken (`ttsChunks`, one TEXT chunk).
    public var speak: String?
    public var softButtons: [Button]
    /// `alertIcon`: a static icon or a file.
    public var icon: String?
    /// Seconds on screen, 3…10 (`duration` 3000…10000 ms); the head unit's default (5 s) when
    /// absent. Head units may keep an alert with soft buttons until one is pressed.
    public var duration: Int?
    public var playTone: Bool?
    public var progressIndicator: Bool?
    /// A SubtleAlert (a notification that does not take the whole screen) instead of an Alert.
    public var subtle: Bool?

    public static let durationRange = 3...10
    /// The `SystemAction`s a button may name.
    public static let actions: Set<String> = ["DEFAULT_ACTION", "STEAL_FOCUS", "KEEP_CONTEXT"]

    public init(
        text: [String] = [], speak: String? = nil, softButtons: [Button] = [], icon: String? = nil, duration: Int? = nil,
        playTone: Bool? = nil, progressIndicator: Bool? = nil, subtle: Bool? = nil
    ) {
        self.text = text
        self.speak = speak
        self.softButtons = softButtons
        self.icon = icon
        self.duration = duration
        self.playTone = playTone
        self.progressIndicator = progressIndicator
        self.subtle = subtle
    }

    private enum CodingKeys: String, CodingKey { case text, speak, softButtons, icon, duration, playTone, progressIndicator, subtle }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decodeIfPresent([String].self, forKey: .text) ?? []
        speak = try container.decodeIfPresent(String.self, forKey: .speak)
        softButtons = try container.decodeIfPresent([Button].self, forKey: .softButtons) ?? []
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        duration = try container.decodeIfPresent(Int.self, forKey: .duration)
        playTone = try container.decodeIfPresent(Bool.self, forKey: .playTone)
        progressIndicator = try container.decodeIfPresent(Bool.self, forKey: .progressIndicator)
        subtle = try container.decodeIfPresent(Bool.self, forKey: .subtle)
    }

    public var isSubtle: Bool { subtle == true }
    /// The RPC the alert becomes.
    public var functionName: String { isSubtle ? "SubtleAlert" : "Alert" }
    /// Lines of text the RPC has.
    public var maximumLines: Int { isSubtle ? 2 : 3 }
    /// Soft buttons the RPC takes.
    public var maximumButtons: Int { isSubtle ? 2 : 4 }

    /// The dynamic images the alert names, with the JSON path of each.
    public var dynamicFiles: [(file: String, path: String)] {
        var files: [(file: String, path: String)] = []
        if let file = SDLImageName.dynamicFile(icon) { files.append((file, "$.icon")) }
        for (index, button) in softButtons.enumerated() {
            if let file = SDLImageName.dynamicFile(button.image) { files.append((file, "$.softButtons[\(index)].image")) }
        }
        return files
    }
}
