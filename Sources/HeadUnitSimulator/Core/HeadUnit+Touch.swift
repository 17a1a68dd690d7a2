import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec

extension HeadUnit {
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
        if let problem = TouchInput.problem(in: touches) { throw SimulatorControlError(.invalidValue, problem) }
        for touch in touches { try requireEnum(touch.type, "TouchType", field: "type") }
        guard configuration.policy.isAllowed("OnTouchEvent", messageType: .notification, hmiLevel: app.hmiLevel) else {
            return (0, takeActions())
        }
        for touch in touches {
            notify("OnTouchEvent", touch.parameters(timestampMilliseconds: now.uptimeNanoseconds / 1_000_000), to: app.sessionID, now: now)
        }
        return (touches.count, takeActions())
    }
}
