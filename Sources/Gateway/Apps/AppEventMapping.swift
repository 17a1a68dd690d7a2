import NIOCore
import SDLClient
import SDLProtocol

/// How session events become gateway events (docs/architecture.md, Events): connection steps are
/// `connection {state, detail}`; the notifications with a type of their own (`vehicleData`,
/// `buttonEvent`, `buttonPress`, `command`, `keyboardInput`, `touchEvent`, `audioPassThru`)
/// carry the notification's parameters; every other notification is `notification {name,
/// parameters}`; an audio pass-thru's chunk is `audioPassThru {chunk, format, bytes, audio}` with
/// its bytes beside it (its start and end are no events: the RPC's traffic and answer tell them);
/// the rest keep ``SDLAppEvent/type`` and ``SDLAppEvent/data``.
enum AppEventMapping {
    struct Mapped {
        var type: String
        var data: SDLJSON
        /// The raw bytes `data` carries as base64.
        var attachment: ByteBuffer?
    }

    static let notificationTypes: [String: String] = [
        "OnVehicleData": "vehicleData", "OnButtonEvent": "buttonEvent", "OnButtonPress": "buttonPress",
        "OnCommand": "command", "OnKeyboardInput": "keyboardInput", "OnTouchEvent": "touchEvent",
        "OnAudioPassThru": "audioPassThru",
    ]

    static func map(_ event: SDLAppSession.Event) -> Mapped? {
        switch event {
        case .connection(let state, let detail):
            return Mapped(type: "connection", data: ["state": .string(state.rawValue), "detail": detail.map(SDLJSON.string) ?? .null])
        case .app(.notification(let name, let parameters)):
            if let type = notificationTypes[name] { return Mapped(type: type, data: parameters) }
            return Mapped(type: "notification", data: ["name": .string(name), "parameters": parameters])
        case .app(.audioPassThru(let audio)):
            guard case .chunk(_, _, let bytes) = audio else { return nil }
            return Mapped(type: "audioPassThru", data: audio.json, attachment: bytes)
        case .app(let event):
            return Mapped(type: event.type, data: event.data)
        case .lost(let count):
            // The session's reader fell behind and `count` events were dropped before the hub.
            return Mapped(type: "gap", data: ["missed": .int(Int64(count))])
        }
    }
}
