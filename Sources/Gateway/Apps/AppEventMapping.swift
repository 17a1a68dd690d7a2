import SDLClient
import SDLProtocol

/// How session events become gateway events (ARCHITECTURE.md, Events): connection steps are
/// `connection {state, detail}`; the notifications with a type of their own (`vehicleData`,
/// `buttonEvent`, `buttonPress`, `command`, `keyboardInput`, `touchEvent`, `audioPassThru`)
/// carry the notification's parameters; every other notification is `notification {name,
/// parameters}`; the rest keep ``SDLAppEvent/type`` and ``SDLAppEvent/data``.
enum AppEventMapping {
    static let notificationTypes: [String: String] = [
        "OnVehicleData": "vehicleData", "OnButtonEvent": "buttonEvent", "OnButtonPress": "buttonPress",
        "OnCommand": "command", "OnKeyboardInput": "keyboardInput", "OnTouchEvent": "touchEvent",
        "OnAudioPassThru": "audioPassThru",
    ]

    static func map(_ event: SDLAppSession.Event) -> (type: String, data: SDLJSON) {
        switch event {
        case .connection(let state, let detail):
            return ("connection", ["state": .string(state.rawValue), "detail": detail.map(SDLJSON.string) ?? .null])
        case .app(.notification(let name, let parameters)):
            if let type = notificationTypes[name] { return (type, parameters) }
            return ("notification", ["name": .string(name), "parameters": parameters])
        case .app(let event):
            return (event.type, event.data)
        case .lost(let count):
            // The session's reader fell behind and `count` events were dropped before the hub.
            return ("gap", ["missed": .int(Int64(count))])
        }
    }
}
