import NIOCore
import SDLProtocol
import SDLSpec

/// One touch of `POST /apps/{appID}/touch`: MOBILE_API `OnTouchEvent` `type` with one
/// `TouchEvent` (`id`, one coordinate).
public struct TouchInput: Sendable, Hashable {
    /// A `TouchType`: BEGIN, MOVE, END or CANCEL.
    public var type: String
    public var x: Int64
    public var y: Int64
    /// The finger, 0…9 (`TouchEvent.id`).
    public var id: Int64

    public init(type: String, x: Int64, y: Int64, id: Int64 = 0) {
        self.type = type
        self.x = x
        self.y = y
        self.id = id
    }
}

extension HeadUnit {
    /// At most this many touches in one control call.
    public static let maximumTouches = 100

    /// `POST /apps/{appID}/touch`: the driver touches the app's video on the screen. Each touch is
    /// one OnTouchEvent (MOBILE_API.xml: `type`, `event: [{id, ts: [ms], c: [{x, y}]}]`), its
    /// timestamp the simulator's clock in milliseconds (modulo the spec's 2·10⁹ maximum), sent
    /// when the app's policy allows OnTouchEvent at its HMI level. Returns how many were sent.
    public mutating func touch(
        appID: String, _ touches: [TouchInput], now: NIODeadline
    ) throws(SimulatorControlError) -> (
        Int, [HeadUnitAction]
    ) {
        let app = try requireApp(appID)
        guard (1...Self.maximumTouches).contains(touches.count) else {
            throw SimulatorControlError(.invalidValue, "send 1…\(Self.maximumTouches) touches, not \(touches.count)")
        }
        for touch in touches {
            try requireEnum(touch.type, "TouchType", field: "type")
            guard (0...9).contains(touch.id) else { throw SimulatorControlError(.invalidValue, "id \(touch.id) is not 0…9") }
            guard (0...10_000).contains(touch.x), (0...10_000).contains(touch.y) else {
                throw SimulatorControlError(.invalidValue, "x and y must be 0…10000 (TouchCoord), not \(touch.x), \(touch.y)")
            }
        }
        guard configuration.policy.isAllowed("OnTouchEvent", messageType: .notification, hmiLevel: app.hmiLevel) else {
            return (0, takeActions())
        }
        let timestamp = Int64((now.uptimeNanoseconds / 1_000_000) % 2_000_000_000)
        for touch in touches {
            let event: SDLJSON = [
                "id": .int(touch.id), "ts": [.int(timestamp)], "c": [["x": .int(touch.x), "y": .int(touch.y)]],
            ]
            notify("OnTouchEvent", ["type": .string(touch.type), "event": [event]], to: app.sessionID, now: now)
        }
        return (touches.count, takeActions())
    }
}
