import SDLProtocol

/// An OnButtonPress or OnButtonEvent by the user's names: a soft button (`buttonName`
/// CUSTOM_BUTTON with a `customButtonID` the screen manager allocated) as its user id and the
/// state it showed, or a subscribed media button.
public enum SDLButtonEvent: Sendable, Hashable {
    /// The `softButton` event `{"id", "state", "mode"}`; `mode` is `buttonPressMode` (SHORT,
    /// LONG) or `buttonEventMode` (BUTTONDOWN, BUTTONUP).
    case softButton(id: String, state: String, mode: String)
    /// The `mediaButton` event `{"button", "mode"}`.
    case mediaButton(name: String, mode: String)

    /// The event for a notification; `nil` for other notifications, soft button ids the screen
    /// does not show and buttons that are not media buttons.
    public static func map(notification name: String, parameters: SDLJSON, screen: SDLScreenState) -> SDLButtonEvent? {
        let mode: String?
        switch name {
        case "OnButtonPress": mode = parameters["buttonPressMode"]?.stringValue
        case "OnButtonEvent": mode = parameters["buttonEventMode"]?.stringValue
        default: return nil
        }
        guard let mode, let button = parameters["buttonName"]?.stringValue else { return nil }
        if button == "CUSTOM_BUTTON" {
            guard let id = parameters["customButtonID"]?.intValue, let reference = screen.softButtons[Int(id)] else { return nil }
            return .softButton(id: reference.id, state: reference.state, mode: mode)
        }
        guard SDLMediaManager.mediaButtons.contains(button) else { return nil }
        return .mediaButton(name: button, mode: mode)
    }

    /// The event's type name and JSON.
    public var json: (type: String, data: SDLJSON) {
        switch self {
        case .softButton(let id, let state, let mode):
            ("softButton", ["id": .string(id), "state": .string(state), "mode": .string(mode)])
        case .mediaButton(let name, let mode):
            ("mediaButton", ["button": .string(name), "mode": .string(mode)])
        }
    }
}
