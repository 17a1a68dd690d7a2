import NIOCore
import SDLProtocol

/// `UI.Show` as SDL Core 8.2 sends it (docs/protocol.md §l, `ShowRequest::Run`): the text fields
/// only as `showStrings`, an array of `{fieldName, fieldText}` (with `fieldTypes` for the
/// metadata tags) holding just the fields the app's Show set; `graphic`, `secondaryGraphic`,
/// `softButtons`, `customPresets`, `alignment` as the app sent them (images with full paths);
/// `templateConfiguration` for a template change (and for SetDisplayLayout); `windowID` for a
/// window other than the main one.
extension HeadlessHMI.App {
    /// The `TextFieldName`s of Show, as MOBILE_API.xml names the Show parameters they come from.
    static let showTextFields: Set<String> = [
        "mainField1", "mainField2", "mainField3", "mainField4", "statusBar", "mediaClock", "mediaTrack", "templateTitle",
    ]

    /// Applies one `UI.Show`: a field it leaves out stays (the head unit keeps what it showed), so
    /// `showStrings` merge by `fieldName`; the template and color schemes go to ``screen``. A Show
    /// for another window (a widget, `windowID` ≠ 0) leaves the main screen alone.
    mutating func applyShow(_ params: [String: SDLJSON]) {
        if let window = params["windowID"]?.intValue, window != 0 { return }
        for (key, value) in params where key != "appID" && key != "showStrings" { show[key] = value }
        if let strings = params["showStrings"]?.arrayValue {
            var merged = show["showStrings"]?.arrayValue ?? []
            for string in strings {
                guard let name = string["fieldName"]?.stringValue else { continue }
                if let index = merged.firstIndex(where: { $0["fieldName"]?.stringValue == name }) {
                    merged[index] = string
                } else {
                    merged.append(string)
                }
            }
            show["showStrings"] = .array(merged)
        }
        if let configuration = params["templateConfiguration"]?.objectValue {
            screen.applyTemplate(
                configuration["template"]?.stringValue, day: configuration["dayColorScheme"], night: configuration["nightColorScheme"]
            )
        }
    }

    /// The shown fields as a renderer reads them: the merged `UI.Show` fields, and each of
    /// `showStrings` under the mobile name too (`mainField1` …, the simulator's shape), with the
    /// metadata tags as Show's `metadataTags`.
    public var showJSON: [String: SDLJSON] {
        var view = show
        var tags: [String: SDLJSON] = [:]
        for string in show["showStrings"]?.arrayValue ?? [] {
            guard let name = string["fieldName"]?.stringValue, Self.showTextFields.contains(name) else { continue }
            view[name] = string["fieldText"] ?? ""
            if let types = string["fieldTypes"] { tags[name] = types }
        }
        if !tags.isEmpty { view["metadataTags"] = .object(tags) }
        return view
    }

    /// The app's icon: `UI.SetAppIcon`'s image, else the path Core gave at registration as an image.
    public var iconImage: SDLJSON? {
        if let icon = screen.icon { return icon }
        return registeredIcon.map { ["value": .string($0), "imageType": "DYNAMIC"] }
    }

    /// `GET /apps/{appID}/screen`: everything a head unit draws for the app at `now`, shaped as the
    /// simulator's screen where the concept is the same, with its open `interactions`; each image
    /// Core named a file for carries the `name` the files route serves it by.
    public func screenJSON(now: NIODeadline, interactions: [SDLJSON]) -> SDLJSON {
        var screen = self.screen.json(now: now)
        screen["show"] = .object(showJSON)
        screen["interactions"] = .array(interactions)
        screen["icon"] = iconImage
        screen["appID"] = .int(appID)
        screen["appName"] = .string(appName)
        screen["hmiLevel"] = .string(hmiLevel)
        screen["isMediaApplication"] = isMediaApplication.map(SDLJSON.bool)
        screen["appType"] = appType.map(SDLJSON.array)
        return files.named(.object(screen))
    }
}
