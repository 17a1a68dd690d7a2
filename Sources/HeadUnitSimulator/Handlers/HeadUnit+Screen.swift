import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

/// Show, SetDisplayLayout, SetMediaClockTimer, SetGlobalProperties, ResetGlobalProperties.
extension HeadUnit {
    static let screenHandlers: [String: RequestHandler] = [
        "Show": { $0.show($1) },
        "SetDisplayLayout": { $0.setDisplayLayout($1) },
        "SetMediaClockTimer": { $0.setMediaClockTimer($1) },
        "SetGlobalProperties": { $0.setGlobalProperties($1) },
        "ResetGlobalProperties": { $0.resetGlobalProperties($1) },
    ]

    /// Core's answer when an image names a DYNAMIC file the app has not put (`VerifyImage`):
    /// the request still succeeds, with WARNINGS.
    static let missingImageInfo = "Reference image(s) not found"

    /// The `value`s of every DYNAMIC `Image` in `json` (at any depth) that the app has not uploaded.
    func missingDynamicImages(in json: SDLJSON, session sessionID: UInt8) -> [String] {
        let files = apps[sessionID]?.files ?? [:]
        var missing: [String] = []
        func walk(_ value: SDLJSON, depth: Int) {
            guard depth < 8 else { return }
            switch value {
            case .object(let object):
                if object["imageType"]?.stringValue == "DYNAMIC", let name = object["value"]?.stringValue {
                    if files[name] == nil { missing.append(name) }
                    return
                }
                for key in object.keys.sorted() { walk(object[key]!, depth: depth + 1) }
            case .array(let array):
                for element in array { walk(element, depth: depth + 1) }
            default:
                break
            }
        }
        walk(json, depth: 0)
        return missing
    }

    /// SUCCESS, or WARNINGS when an image names a file the app has not uploaded.
    func successOrImageWarning(_ params: [String: SDLJSON], session sessionID: UInt8, parameters: [String: SDLJSON] = [:]) -> Reply {
        let missing = missingDynamicImages(in: .object(params), session: sessionID)
        guard missing.isEmpty else {
            return .result("WARNINGS", info: "\(Self.missingImageInfo): \(missing.joined(separator: ", "))", parameters: parameters)
        }
        return .success(parameters)
    }

    /// The templates the display offers (`displayCapabilities.templatesAvailable`).
    var templatesAvailable: [String] {
        configuration.profile.document["displayCapabilities"]?["templatesAvailable"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    // MARK: - Show

    mutating func show(_ request: Request) -> Reply {
        changeApp(request) { unit, app in
            var params = request.parameters
            for key in ["mainField1", "mainField2", "mainField3", "mainField4", "statusBar", "mediaClock", "mediaTrack", "templateTitle"] {
                // Core's `ShowRequest::IsWhiteSpaceExist`: no tab or newline; empty text clears a field.
                if let text = params[key]?.stringValue, text.contains("\n") || text.contains("\t") {
                    return .refused(.result("INVALID_DATA", info: "\(key) has a tab or newline"))
                }
            }
            if let configuration = params["templateConfiguration"]?.objectValue {
                let template = configuration["template"]?.stringValue ?? ""
                if let refusal = unit.applyTemplate(
                    template, day: configuration["dayColorScheme"], night: configuration["nightColorScheme"], to: &app)
                {
                    return .refused(.result("REJECTED", info: refusal))
                }
            }
            params["windowID"] = nil
            params["templateConfiguration"] = nil
            app.screen.show.merge(params) { _, new in new }
            return .done { $0.successOrImageWarning(request.parameters, session: request.sessionID) }
        }
    }

    /// Shows `template` with its color schemes (Show's `templateConfiguration`, SetDisplayLayout);
    /// returns why the head unit refuses instead: a template the display lacks, or a color scheme
    /// change without a template change.
    func applyTemplate(_ template: String, day: SDLJSON?, night: SDLJSON?, to app: inout AppState) -> String? {
        guard templatesAvailable.contains(template) else { return "The display has no template \(template)" }
        if let reason = colorSchemeChangeRefusal(app: app, template: template, day: day, night: night) { return reason }
        app.screen.template = template
        if let day { app.screen.dayColorScheme = day }
        if let night { app.screen.nightColorScheme = night }
        return nil
    }

    /// Core refuses a color scheme change unless the template changes too
    /// (`SetDisplayLayoutRequest::Run`).
    func colorSchemeChangeRefusal(app: AppState, template: String, day: SDLJSON?, night: SDLJSON?) -> String? {
        guard template == app.screen.template else { return nil }
        let dayChanged = day != nil && app.screen.dayColorScheme != nil && day != app.screen.dayColorScheme
        let nightChanged = night != nil && app.screen.nightColorScheme != nil && night != app.screen.nightColorScheme
        guard dayChanged || nightChanged else { return nil }
        return
            "Using SetDisplayLayout to change the color scheme may only be done once. However, the color scheme can be changed if the layout is also changed."
    }

    // MARK: - SetDisplayLayout

    mutating func setDisplayLayout(_ request: Request) -> Reply {
        changeApp(request) { unit, app in
            let params = request.parameters
            let layout = params["displayLayout"]?.stringValue ?? ""
            if let refusal = unit.applyTemplate(layout, day: params["dayColorScheme"], night: params["nightColorScheme"], to: &app) {
                return .refused(.result("REJECTED", info: refusal))
            }
            var response: [String: SDLJSON] = [:]
            for key in ["displayCapabilities", "buttonCapabilities", "softButtonCapabilities", "presetBankCapabilities"] {
                if let value = unit.configuration.profile.document[key] { response[key] = value }
            }
            return .done(.success(response))
        }
    }

    // MARK: - SetMediaClockTimer

    mutating func setMediaClockTimer(_ request: Request) -> Reply {
        changeApp(request) { _, app in
            guard app.isMediaApplication else {
                return .refused(.result("REJECTED", info: "Application is not media"))
            }
            let params = request.parameters
            let mode = params["updateMode"]?.stringValue ?? ""
            let nowMs = Int64(request.now.uptimeNanoseconds / 1_000_000)
            switch mode {
            case "COUNTUP", "COUNTDOWN":
                guard let start = MediaClock.seconds(of: params["startTime"]) else {
                    return .refused(.result("INVALID_DATA", info: "Start time must be provided for 'COUNTUP' and 'COUNTDOWN'"))
                }
                if let end = MediaClock.seconds(of: params["endTime"]) {
                    if mode == "COUNTUP" && start > end {
                        return .refused(.result("INVALID_DATA", info: "Start time must be before end time for COUNTUP"))
                    }
                    if mode == "COUNTDOWN" && start < end {
                        return .refused(.result("INVALID_DATA", info: "Start time must be after end time for COUNTDOWN"))
                    }
                }
                var clock = params
                clock["positionSeconds"] = .double(Double(start))
                clock["running"] = true
                clock["runningSinceUptimeMs"] = .int(nowMs)
                app.screen.mediaClock = .object(clock)
            case "PAUSE":
                if var clock = app.screen.mediaClock?.objectValue, clock["running"]?.boolValue == true {
                    clock["positionSeconds"] = .double(MediaClock.position(.object(clock), now: request.now) ?? 0)
                    clock["running"] = false
                    clock["runningSinceUptimeMs"] = nil
                    clock["paused"] = true
                    app.screen.mediaClock = .object(clock)
                }
            case "RESUME":
                if var clock = app.screen.mediaClock?.objectValue, clock["running"]?.boolValue == false {
                    clock["running"] = true
                    clock["runningSinceUptimeMs"] = .int(nowMs)
                    clock["paused"] = nil
                    app.screen.mediaClock = .object(clock)
                }
            default:  // CLEAR
                app.screen.mediaClock = nil
            }
            if var clock = app.screen.mediaClock?.objectValue {
                for key in ["audioStreamingIndicator", "forwardSeekIndicator", "backSeekIndicator"] where params[key] != nil {
                    clock[key] = params[key]
                }
                app.screen.mediaClock = .object(clock)
            }
            return .done(.success())
        }
    }

    // MARK: - Global properties

    /// `GlobalProperty` values and the SetGlobalProperties parameters they reset.
    static let globalPropertyKeys: [String: String] = [
        "USER_LOCATION": "userLocation",
        "HELPPROMPT": "helpPrompt",
        "TIMEOUTPROMPT": "timeoutPrompt",
        "VRHELPTITLE": "vrHelpTitle",
        "VRHELPITEMS": "vrHelp",
        "MENUNAME": "menuTitle",
        "MENUICON": "menuIcon",
        "KEYBOARDPROPERTIES": "keyboardProperties",
        "MENULAYOUT": "menuLayout",
    ]

    mutating func setGlobalProperties(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            var params = request.parameters
            params["windowID"] = nil
            guard !params.isEmpty else {
                return .refused(.result("INVALID_DATA", info: "There are no parameters present in request"))
            }
            if (params["vrHelpTitle"] == nil) != (params["vrHelp"] == nil) {
                return .refused(.result("REJECTED", info: "vrHelpTitle and vrHelp must be given together"))
            }
            for key in ["vrHelpTitle", "menuTitle"] {
                if let text = params[key]?.stringValue, Self.isBadText(text) {
                    return .refused(.result("INVALID_DATA", info: "\(key) is empty or has a tab or newline"))
                }
            }
            app.screen.globalProperties.merge(params) { _, new in new }
            let shown = params
            return .done { $0.successOrImageWarning(shown, session: request.sessionID) }
        }
    }

    mutating func resetGlobalProperties(_ request: Request) -> Reply {
        changeApp(request, resumable: true) { _, app in
            for property in request.parameters["properties"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                if let key = Self.globalPropertyKeys[property] { app.screen.globalProperties[key] = nil }
            }
            return .done(.success())
        }
    }
}
