/// A declared choice of an interaction: the user's id and what the head unit shows and hears
/// (MOBILE_API.xml `Choice`).
public struct SDLChoice: Sendable, Hashable, Codable {
    /// A choice without its user id: what the head unit keeps in a choice set, and the key of
    /// ``SDLChoiceSetManager``'s cache.
    public struct Content: Sendable, Hashable {
        public var text: String
        public var secondaryText: String?
        public var tertiaryText: String?
        public var image: String?
        public var voiceCommands: [String]
    }

    public var id: String
    public var text: String
    public var secondaryText: String?
    public var tertiaryText: String?
    public var image: String?
    public var voiceCommands: [String]

    public init(
        id: String, text: String, secondaryText: String? = nil, tertiaryText: String? = nil, image: String? = nil,
        voiceCommands: [String] = []
    ) {
        self.id = id
        self.text = text
        self.secondaryText = secondaryText
        self.tertiaryText = tertiaryText
        self.image = image
        self.voiceCommands = voiceCommands
    }

    private enum CodingKeys: String, CodingKey { case id, text, secondaryText, tertiaryText, image, voiceCommands }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        text = try container.decode(String.self, forKey: .text)
        secondaryText = try container.decodeIfPresent(String.self, forKey: .secondaryText)
        tertiaryText = try container.decodeIfPresent(String.self, forKey: .tertiaryText)
        image = try container.decodeIfPresent(String.self, forKey: .image)
        voiceCommands = try container.decodeIfPresent([String].self, forKey: .voiceCommands) ?? []
    }

    public var content: Content {
        Content(text: text, secondaryText: secondaryText, tertiaryText: tertiaryText, image: image, voiceCommands: voiceCommands)
    }
}
