import HeadUnitModel
import NIOCore
import SDLProtocol

extension HeadlessHMI {
    /// The app types SDL Core sends `OnTouchEvent` to (its `OnTouchEventNotification` goes to
    /// the navigation and projection apps that are full screen).
    static let touchableAppTypes: Set<String> = ["NAVIGATION", "PROJECTION"]

    /// The driver touches an app's video: one `UI.OnTouchEvent` per touch (HMI_API.xml: `type`,
    /// `event: [{id, ts, c: [{x, y}]}]`, with no app ID). Core passes it on to every NAVIGATION
    /// or PROJECTION app in FULL, so the app named here must be one, in FULL; Core's policy
    /// then needs OnTouchEvent for it (the stock group `OnTouchEventOnlyGroup`, FULL).
    public func touch(appID: Int64, _ touches: [TouchInput], now: NIODeadline = .now()) throws(HMIError) -> [HMIMessage] {
        guard let app = apps[appID] else { throw HMIError(.unknownApp, "Core has registered no app with HMI id \(appID)") }
        if let problem = TouchInput.problem(in: touches) { throw HMIError(.invalidValue, problem) }
        if let touch = touches.first(where: { !TouchInput.types.contains($0.type) }) {
            throw HMIError(.invalidValue, "type is BEGIN, MOVE, END or CANCEL, not \(touch.type)")
        }
        let types = Set((app.appType ?? []).compactMap(\.stringValue))
        guard !types.isDisjoint(with: Self.touchableAppTypes) else {
            throw HMIError(.notTouchable, "app \(appID) is no NAVIGATION or PROJECTION app: Core sends touches only to those")
        }
        guard app.hmiLevel == "FULL" else {
            throw HMIError(.notTouchable, "app \(appID) is in \(app.hmiLevel): Core sends touches only to the app in FULL")
        }
        return touches.map { touch in
            notify("UI.OnTouchEvent", touch.parameters(timestampMilliseconds: now.uptimeNanoseconds / 1_000_000))
        }
    }
}
