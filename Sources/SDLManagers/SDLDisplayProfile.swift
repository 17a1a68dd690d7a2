import SDLProtocol

/// What the managers need to know about the head unit's main window: read from the
/// `WindowCapability` struct (MOBILE_API.xml 6.0+, `DisplayCapability.windowCapabilities` of
/// GetSystemCapability DISPLAYS; the RegisterAppInterface `displayCapabilities` of older heads
/// has the same `textFields` and `templatesAvailable`) and the negotiated RPC spec version.
///
/// Unknown is permissive: without a capability the profile allows four main field lines, any
/// template and the eight soft buttons `Show.softButtons` can carry (MOBILE_API.xml `maxsize`).
public struct SDLDisplayProfile: Sendable, Hashable {
    /// The number of main field lines: the highest `mainFieldN` (1…4) of `textFields`.
    public var mainFieldLines: Int
    /// `TextField.width` by `TextField.name`, for the fields that state one.
    public var fieldWidths: [String: Int]
    /// The names of `textFields`; `nil` when unknown (every field assumed present).
    public var textFieldNames: Set<String>?
    /// `templatesAvailable`; `nil` when unknown (any template accepted).
    public var templatesAvailable: Set<String>?
    /// The number of `softButtonCapabilities` entries: how many soft buttons the window shows.
    public var maximumSoftButtons: Int
    /// `menuLayoutsAvailable` (6.0+); `nil` when unknown (a declared layout is sent as is).
    public var menuLayoutsAvailable: Set<String>?
    /// The major version of the negotiated RPC spec (the lower of the app's `syncMsgVersion` and
    /// the head unit's `sdlMsgVersion`).
    public var rpcSpecMajorVersion: Int

    /// The most soft buttons one Show may carry (MOBILE_API.xml `Show.softButtons` maxsize).
    public static let showSoftButtonLimit = 8

    public init(
        mainFieldLines: Int = 4,
        fieldWidths: [String: Int] = [:],
        textFieldNames: Set<String>? = nil,
        templatesAvailable: Set<String>? = nil,
        maximumSoftButtons: Int = SDLDisplayProfile.showSoftButtonLimit,
        menuLayoutsAvailable: Set<String>? = nil,
        rpcSpecMajorVersion: Int = 8
    ) {
        self.mainFieldLines = min(max(mainFieldLines, 0), 4)
        self.fieldWidths = fieldWidths
        self.textFieldNames = textFieldNames
        self.templatesAvailable = templatesAvailable
        self.maximumSoftButtons = min(max(maximumSoftButtons, 0), Self.showSoftButtonLimit)
        self.menuLayoutsAvailable = menuLayoutsAvailable
        self.rpcSpecMajorVersion = rpcSpecMajorVersion
    }

    /// Reads a `WindowCapability` (or an old `DisplayCapabilities`) object; members it lacks stay
    /// unknown. The number of soft buttons comes from the window's own `softButtonCapabilities`
    /// ("the number of soft buttons available on-window", MOBILE_API.xml `WindowCapability`);
    /// RegisterAppInterface's separate parameter only says soft buttons are supported (SDL Core's
    /// default `hmi_capabilities.json` lists one entry there and shows several buttons), so it
    /// leaves the count at the Show limit.
    public init(windowCapability: SDLJSON?, rpcSpecMajorVersion: Int) {
        var lines = 4
        var widths: [String: Int] = [:]
        var names: Set<String>?
        if let fields = windowCapability?["textFields"]?.arrayValue {
            var found = Set<String>()
            for field in fields {
                guard let name = field["name"]?.stringValue else { continue }
                found.insert(name)
                if let width = field["width"]?.intValue { widths[name] = Int(width) }
            }
            names = found
            lines = (1...4).last { found.contains("mainField\($0)") } ?? 0
        }
        let templates = windowCapability?["templatesAvailable"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        let buttons = windowCapability?["softButtonCapabilities"]?.arrayValue?.count
        let layouts = windowCapability?["menuLayoutsAvailable"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
        self.init(
            mainFieldLines: lines,
            fieldWidths: widths,
            textFieldNames: names,
            templatesAvailable: templates,
            maximumSoftButtons: buttons ?? Self.showSoftButtonLimit,
            menuLayoutsAvailable: layouts,
            rpcSpecMajorVersion: rpcSpecMajorVersion
        )
    }

    /// The template rule: `Show.templateConfiguration` exists from RPC spec 6.0 (where
    /// SetDisplayLayout became deprecated), so a negotiated major version of 6 or more changes the
    /// template inside the Show; older heads get a SetDisplayLayout before the Show. This is the
    /// rule sdl_javascript_suite's TextAndGraphicManager applies (`sdlMsgVersion` major ≥ 6; docs/protocol.md §m).
    public var usesTemplateConfiguration: Bool { rpcSpecMajorVersion >= 6 }

    /// Whether the display has the text field `name`; `true` when unknown.
    public func hasField(_ name: String) -> Bool { textFieldNames?.contains(name) ?? true }
}
