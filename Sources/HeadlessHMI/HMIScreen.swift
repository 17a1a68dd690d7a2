import HeadUnitModel
import NIOCore
import SDLProtocol

/// What the headless HMI shows for an app besides its `UI.Show` fields, kept from Core's UI
/// requests as the simulator keeps its screen (HMI_API.xml): the menu (`UI.AddCommand`,
/// `UI.DeleteCommand`, `UI.AddSubMenu`, `UI.DeleteSubMenu`), the media clock
/// (`UI.SetMediaClockTimer`, run as the simulator runs it), global properties
/// (`UI.SetGlobalProperties`), the icon (`UI.SetAppIcon`), the layout (`UI.SetDisplayLayout`
/// of Cores before 6.0) and the template with its color schemes (`UI.Show`
/// `templateConfiguration`, which Core 8.2 sends for SetDisplayLayout too: docs/protocol.md §l).
/// Core sends them again after a resumption, so the screen comes back with the app.
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
    /// The template Core last asked for (`templateConfiguration.template` of `UI.Show`,
    /// `displayLayout` of `UI.SetDisplayLayout`); nil until it asks.
    public var template: String?
    /// The app's color schemes: from its registration (`OnAppRegistered`), then each template change.
    public var dayColorScheme: SDLJSON?
    public var nightColorScheme: SDLJSON?

    public init() {}

    /// A template with its color schemes (a scheme left out stays as it was, as on Core's side).
    mutating func applyTemplate(_ template: String?, day: SDLJSON?, night: SDLJSON?) {
        if let template, !template.isEmpty { self.template = template }
        if let day, day.objectValue != nil { dayColorScheme = day }
        if let night, night.objectValue != nil { nightColorScheme = night }
    }

    /// Applies one of Core's UI requests, received at `now`.
    mutating func apply(_ method: String, _ params: [String: SDLJSON], now: NIODeadline = .now()) {
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
            mediaClock = HMIMediaClock.apply(fields, to: mediaClock, now: now)
        case "UI.SetGlobalProperties":
            globalProperties.merge(fields) { $1 }
        case "UI.SetAppIcon":
            icon = params["syncFileName"]
        case "UI.SetDisplayLayout":
            layout = fields
            applyTemplate(params["displayLayout"]?.stringValue, day: params["dayColorScheme"], night: params["nightColorScheme"])
        default:
            break
        }
    }

    /// The control API's view now.
    public var json: [String: SDLJSON] { json(now: .now()) }

    /// The control API's view at `now`: the menu in id order, the template (`DEFAULT` until Core
    /// names one, as the simulator's), the media clock with where it is now (`currentSeconds`).
    public func json(now: NIODeadline) -> [String: SDLJSON] {
        var object: [String: SDLJSON] = [
            "menu": .array(commands.keys.sorted().map { id in .object(commands[id] ?? [:]) }),
            "subMenus": .array(subMenus.keys.sorted().map { id in .object(subMenus[id] ?? [:]) }),
            "globalProperties": .object(globalProperties),
            "template": .string(template ?? "DEFAULT"),
        ]
        object["dayColorScheme"] = dayColorScheme
        object["nightColorScheme"] = nightColorScheme
        if var clock = mediaClock {
            if let position = MediaClock.position(.object(clock), now: now) { clock["currentSeconds"] = .double(position) }
            object["mediaClock"] = .object(clock)
        }
        if let icon { object["icon"] = icon }
        if let layout { object["layout"] = .object(layout) }
        return object
    }
}
