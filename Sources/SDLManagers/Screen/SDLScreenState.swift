import SDLProtocol

/// What the head unit shows of the main window, as the manager last had it accepted: the Show
/// parameters that stick (main fields, title, media track, alignment, graphics, soft buttons,
/// metadata tags), the template, and which soft button state each `softButtonID` stands for.
/// ``empty`` is a head unit that shows nothing of the app (a new registration, a restart, a
/// failed resumption).
public struct SDLScreenState: Sendable, Hashable {
    /// Show parameters by name, as sent.
    public var fields: [String: SDLJSON]
    /// The `PredefinedLayout` in effect; `nil` for the head unit's default.
    public var template: String?
    /// `softButtonID` → the user's button id and the state it shows.
    public var softButtons: [Int: SDLSoftButtonReference]

    public static let empty = SDLScreenState(fields: [:], template: nil, softButtons: [:])

    public init(fields: [String: SDLJSON], template: String?, softButtons: [Int: SDLSoftButtonReference]) {
        self.fields = fields
        self.template = template
        self.softButtons = softButtons
    }

    /// The value a head unit without the field shows: what sending `name` as empty means.
    public static func clearedValue(of name: String) -> SDLJSON? {
        switch name {
        case "mainField1", "mainField2", "mainField3", "mainField4", "templateTitle", "mediaTrack":
            return ""
        case "graphic", "secondaryGraphic":
            return ["value": "", "imageType": "DYNAMIC"]
        case "softButtons":
            return []
        case "metadataTags":
            return .emptyObject
        default:
            return nil
        }
    }

    /// The value of `name` the head unit shows: the sent one, else the cleared one.
    public func shown(_ name: String) -> SDLJSON? {
        fields[name] ?? Self.clearedValue(of: name)
    }
}

/// A user's soft button and the name of the state the head unit shows for it.
public struct SDLSoftButtonReference: Sendable, Hashable {
    public var id: String
    public var state: String

    public init(id: String, state: String) {
        self.id = id
        self.state = state
    }
}
