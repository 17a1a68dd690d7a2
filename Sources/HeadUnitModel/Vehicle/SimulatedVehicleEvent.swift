import SDLProtocol

/// What the simulated vehicle does that the head unit tells apps about.
public enum SimulatedVehicleEvent: Sendable, Hashable {
    /// Vehicle data that changed, by SDL name (OnVehicleData for the subscribed names).
    case vehicleData([String: SDLJSON])
    /// A button went down or up (OnButtonEvent); `name` is an SDL ButtonName.
    case buttonEvent(name: String, mode: ButtonEventMode)
    /// A button was pressed (OnButtonPress); `name` is an SDL ButtonName.
    case buttonPress(name: String, mode: ButtonPressMode)

    /// SDL's ButtonEventMode.
    public enum ButtonEventMode: String, Sendable, Hashable, CaseIterable {
        case buttonDown = "BUTTONDOWN"
        case buttonUp = "BUTTONUP"
    }

    /// SDL's ButtonPressMode.
    public enum ButtonPressMode: String, Sendable, Hashable, CaseIterable {
        case short = "SHORT"
        case long = "LONG"
    }
}
