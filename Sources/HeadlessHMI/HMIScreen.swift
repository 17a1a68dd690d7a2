import SDLProtocol

/// What the headless HMI shows for an app besides its `UI.Show` fields, kept from Core's UI
/// requests as the simulator keeps its screen (HMI_API.xml): the menu (`UI.AddCommand`,
/// `UI.DeleteCommand`, `UI.AddSubMenu`, `UI.DeleteSubMenu`), the media clock
/// (`UI.SetMediaClockTimer`), global properties (`UI.SetGlobalProperties`), the icon
/// (`UI.SetAppIcon`) and the layout (`UI.SetDisplayLayout`). Core sends them again after a
/// resumption, so the screen comes back with the app.
public struct HMIScreen: Sendable, Hashable {
    /// The UI requests that change it.
    static let methods: Set<String> = [
        "UI.AddCommand", "UI.DeleteCommand", "UI.AddSubMenu", "UI.DeleteSubMenu", "UI.SetMediaClockTimer",
        "UI.SetGlobalProperties", "UI.SetAppIcon", "UI.SetDisplayLayout",
    ]

    /// Menu commands by `cmdID` (their `menuParams`, `cmdIcon` …).
    public var commands: [Int64: [String: SDLJSON]] = [:]
    /// Sub-menus by `menuID`.
    public var subMenus: [Int64: [String: SDLJSON]] = [:]
    /// The last `UI.SetMediaClockTimer` (start time, update mode, indicator).
    public var mediaClock: [String: SDLJSON]?
    /// `UI.SetGlobalProperties` fields, the latest value of each.
    public var globalProperties: [String: SDLJSON] = [:]
    /// The `UI.SetAppIcon` image.
    public var icon: SDLJSON?
    /// The `UI.SetDisplayLayout` layout and colours.
    public var layout: [String: SDLJSON]?

    public init() {}

    /// Applies one of Core's UI requests.
    mutating func apply(_ method: String, _ params: [String: SDLJSON]) {
        let fields = params.filter { $0.key != "appID" }
        switch method {
        case "UI.AddCommand":
            if let id = params["cmdID"]?.intValue { commands[id] = fields }
        case "UI.DeleteCommand":
            if let id = params["cmdID"]?.intValue { commands.removeValue(forKey: id) }
        case "UI.AddSubMenu":
            if let id = params["menuID"]?.intValue { subMenus[id] = fields }
        case "UI.DeleteSubMenu":
            if let id = params["menuID"]?.intValue {
                subMenus.removeValue(forKey: id)
                // Its commands go with it, as on Core's side.
                commands = commands.filter { $0.value["menuParams"]?["parentID"]?.intValue != id }
            }
        case "UI.SetMediaClockTimer":
            mediaClock = fields
        case "UI.SetGlobalProperties":
            globalProperties.merge(fields) { $1 }
        case "UI.SetAppIcon":
            icon = params["syncFileName"]
        case "UI.SetDisplayLayout":
            layout = fields
        default:
            break
        }
    }

    /// The control API's view: the menu in id order.
    public var json: [String: SDLJSON] {
        var object: [String: SDLJSON] = [
            "menu": .array(commands.keys.sorted().map { id in .object(commands[id] ?? [:]) }),
            "subMenus": .array(subMenus.keys.sorted().map { id in .object(subMenus[id] ?? [:]) }),
            "globalProperties": .object(globalProperties),
        ]
        if let mediaClock { object["mediaClock"] = .object(mediaClock) }
        if let icon { object["icon"] = icon }
        if let layout { object["layout"] = .object(layout) }
        return object
    }
}
