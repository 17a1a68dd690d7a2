import NIOCore
import SDLProtocol

/// What a driver does at the head unit, as the HMI tells Core (HMI_API.xml notifications and
/// `SDL.ActivateApp`): the control API's operations.
extension HeadlessHMI {
    /// The driver puts an app into `hmiLevel`: FULL activates it (`SDL.ActivateApp`), NONE exits
    /// it (`BasicCommunication.OnExitApplication` USER_EXIT), BACKGROUND or LIMITED deactivates
    /// it (`BasicCommunication.OnAppDeactivated`).
    public mutating func setHMILevel(appID: Int64, _ hmiLevel: String) throws(HMIError) -> [HMIMessage] {
        guard apps[appID] != nil else { throw HMIError(.unknownApp, "Core has registered no app with HMI id \(appID)") }
        switch hmiLevel {
        case "FULL":
            return try activate(appID: appID)
        case "NONE":
            setLevel(appID, "NONE")
            return [notify("BasicCommunication.OnExitApplication", ["appID": .int(appID), "reason": "USER_EXIT"])]
        case "BACKGROUND", "LIMITED":
            setLevel(appID, hmiLevel)
            return [notify("BasicCommunication.OnAppDeactivated", ["appID": .int(appID)])]
        default:
            throw HMIError(.invalidValue, "hmiLevel is FULL, LIMITED, BACKGROUND or NONE, not \(hmiLevel)")
        }
    }

    /// The driver presses a button: `Buttons.OnButtonEvent` down and up, then `Buttons.OnButtonPress`
    /// (`mode` SHORT or LONG). `appID` names the app for app-specific buttons (soft buttons, with
    /// `customButtonID`); media buttons go to the app in FULL without it, as Core routes them.
    /// A soft button of the app's open alert or scrollable message then acts on it
    /// (``softButtonPressed(appID:customButtonID:now:)``).
    public mutating func pressButton(
        _ name: String, mode: String, appID: Int64?, customButtonID: Int64?, now: NIODeadline = .now()
    ) throws(HMIError) -> [HMIMessage] {
        guard mode == "SHORT" || mode == "LONG" else { throw HMIError(.invalidValue, "mode is SHORT or LONG, not \(mode)") }
        if let appID, apps[appID] == nil { throw HMIError(.unknownApp, "Core has registered no app with HMI id \(appID)") }
        var params: [String: SDLJSON] = ["name": .string(name)]
        if let appID { params["appID"] = .int(appID) }
        if let customButtonID { params["customButtonID"] = .int(customButtonID) }
        func with(_ key: String, _ value: SDLJSON) -> [String: SDLJSON] { params.merging([key: value]) { $1 } }
        let pressed = [
            notify("Buttons.OnButtonEvent", with("mode", "BUTTONDOWN")),
            notify("Buttons.OnButtonEvent", with("mode", "BUTTONUP")),
            notify("Buttons.OnButtonPress", with("mode", .string(mode))),
        ]
        guard let appID, let customButtonID else { return pressed }
        return pressed + softButtonPressed(appID: appID, customButtonID: customButtonID, now: now)
    }

    /// The driver picks a command of an app's menu (`UI.OnCommand`) or says it (`VR.OnCommand`).
    public func triggerCommand(appID: Int64, commandID: Int64, voice: Bool) throws(HMIError) -> [HMIMessage] {
        guard apps[appID] != nil else { throw HMIError(.unknownApp, "Core has registered no app with HMI id \(appID)") }
        return [notify(voice ? "VR.OnCommand" : "UI.OnCommand", ["cmdID": .int(commandID), "appID": .int(appID)])]
    }

    /// The car starts or stops moving: `UI.OnDriverDistraction`.
    public mutating func setDriverDistraction(_ state: String) throws(HMIError) -> [HMIMessage] {
        guard state == "DD_ON" || state == "DD_OFF" else { throw HMIError(.invalidValue, "state is DD_ON or DD_OFF, not \(state)") }
        driverDistraction = state
        return [notify("UI.OnDriverDistraction", ["state": .string(state)])]
    }
}

extension HeadlessHMI.App {
    /// The control API's view of the app.
    public var json: SDLJSON {
        var object: [String: SDLJSON] = ["appID": .int(appID), "appName": .string(appName), "hmiLevel": .string(hmiLevel)]
        if let policyAppID { object["policyAppID"] = .string(policyAppID) }
        if let isMediaApplication { object["isMediaApplication"] = .bool(isMediaApplication) }
        if let appType { object["appType"] = .array(appType) }
        return .object(object)
    }
}
