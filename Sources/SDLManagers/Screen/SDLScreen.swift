/// A declared screen: what the user wants the app's main window to show (the `screen`
/// resource). Every member is optional: an absent text or graphic is shown empty.
public struct SDLScreen: Sendable, Hashable, Codable {
    /// A `PredefinedLayout` of MOBILE_API.xml (`MEDIA`, `NON-MEDIA`, `GRAPHIC_WITH_TEXT` …).
    public var template: String?
    /// `Show.templateTitle` (RPC spec 6.0+).
    public var title: String?
    /// Up to ``maximumTextFields`` lines, fitted to the display's main fields.
    public var textFields: [String]
    /// `Show.mediaTrack`.
    public var mediaTrack: String?
    /// `Show.alignment`: `LEFT_ALIGNED`, `RIGHT_ALIGNED` or `CENTERED` (`TextAlignment`).
    public var alignment: String?
    /// Image names (see ``SDLImageName``).
    public var primaryGraphic: String?
    public var secondaryGraphic: String?
    public var softButtons: [SDLSoftButton]

    /// Show has four main fields.
    public static let maximumTextFields = 4
    /// The values of MOBILE_API.xml `TextAlignment`.
    public static let alignments: Set<String> = ["LEFT_ALIGNED", "RIGHT_ALIGNED", "CENTERED"]

    public init(
        template: String? = nil,
        title: String? = nil,
        textFields: [String] = [],
        mediaTrack: String? = nil,
        alignment: String? = nil,
        primaryGraphic: String? = nil,
        secondaryGraphic: String? = nil,
        softButtons: [SDLSoftButton] = []
    ) {
        self.template = template
        self.title = title
        self.textFields = textFields
        self.mediaTrack = mediaTrack
        self.alignment = alignment
        self.primaryGraphic = primaryGraphic
        self.secondaryGraphic = secondaryGraphic
        self.softButtons = softButtons
    }

    private enum CodingKeys: String, CodingKey {
        case template, title, textFields, mediaTrack, alignment, primaryGraphic, secondaryGraphic, softButtons
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        template = try container.decodeIfPresent(String.self, forKey: .template)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        textFields = try container.decodeIfPresent([String].self, forKey: .textFields) ?? []
        mediaTrack = try container.decodeIfPresent(String.self, forKey: .mediaTrack)
        alignment = try container.decodeIfPresent(String.self, forKey: .alignment)
        primaryGraphic = try container.decodeIfPresent(String.self, forKey: .primaryGraphic)
        secondaryGraphic = try container.decodeIfPresent(String.self, forKey: .secondaryGraphic)
        softButtons = try container.decodeIfPresent([SDLSoftButton].self, forKey: .softButtons) ?? []
    }

    /// The dynamic image files the screen names, in declaration order, without repeats.
    public var dynamicFiles: [String] {
        var names: [String] = []
        let candidates = [primaryGraphic, secondaryGraphic] + softButtons.flatMap { $0.states.map(\.image) }
        for case let name? in candidates.map(SDLImageName.dynamicFile) where !names.contains(name) {
            names.append(name)
        }
        return names
    }
}
