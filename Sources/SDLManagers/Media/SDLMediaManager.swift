import SDLProtocol

/// Plans the media clock and the media button subscriptions of a declared ``SDLMedia``; its
/// text and artwork go through ``SDLScreenManager`` (they are Show parameters).
///
/// - The clock is sent only when the declared clock differs from the accepted one, as one
///   SetMediaClockTimer (MOBILE_API.xml `SetMediaClockTimer`): PLAYING → `COUNTUP` from
///   `position` (with `endTime` = `duration`) and the indicator PAUSE; PAUSED → `PAUSE` with the
///   paused `startTime`/`endTime` (allowed for PAUSE) and the indicator PLAY; STOPPED → `CLEAR`
///   and the indicator PLAY. A clock that disappears from the declaration is cleared.
/// - The first declaration subscribes the media buttons (SubscribeButton PLAY_PAUSE, SEEKLEFT,
///   SEEKRIGHT) so their presses arrive as ``SDLButtonEvent/mediaButton(name:mode:)``.
public struct SDLMediaManager: Sendable {
    /// What the head unit has: the clock last set and the buttons subscribed.
    public struct State: Sendable, Hashable {
        public var clock: SDLMediaClock?
        public var subscribedButtons: [String]

        public static let empty = State(clock: nil, subscribedButtons: [])
    }

    public struct Update: Sendable, Hashable {
        public var plan: SDLManagerPlan
        public var state: State
    }

    /// The buttons a media app subscribes (MOBILE_API.xml `ButtonName`).
    public static let mediaButtons = ["PLAY_PAUSE", "SEEKLEFT", "SEEKRIGHT"]

    public private(set) var accepted = State.empty

    public init() {}

    public func plan(_ media: SDLMedia) -> Update {
        var plan = SDLManagerPlan()
        for button in Self.mediaButtons where !accepted.subscribedButtons.contains(button) {
            plan.append(SDLPlannedRequest("SubscribeButton", ["buttonName": .string(button)]))
        }
        if media.clock != accepted.clock {
            if let clock = media.clock {
                plan.append(Self.setMediaClockTimer(clock))
            } else {
                plan.append(SDLPlannedRequest("SetMediaClockTimer", ["updateMode": "CLEAR"]))
            }
        }
        return Update(plan: plan, state: State(clock: media.clock, subscribedButtons: Self.mediaButtons))
    }

    public mutating func accept(_ update: Update) { accepted = update.state }

    public mutating func headUnitReset() { accepted = .empty }

    /// The SetMediaClockTimer request for `clock`.
    public static func setMediaClockTimer(_ clock: SDLMediaClock) -> SDLPlannedRequest {
        var parameters: [String: SDLJSON] = [:]
        switch clock.state {
        case .playing:
            parameters["updateMode"] = "COUNTUP"
            parameters["audioStreamingIndicator"] = "PAUSE"
        case .paused:
            parameters["updateMode"] = "PAUSE"
            parameters["audioStreamingIndicator"] = "PLAY"
        case .stopped:
            parameters["updateMode"] = "CLEAR"
            parameters["audioStreamingIndicator"] = "PLAY"
        }
        if clock.state != .stopped {
            parameters["startTime"] = SDLMediaClock.startTime(clock.position)
            if let duration = clock.duration, duration >= clock.position {
                parameters["endTime"] = SDLMediaClock.startTime(duration)
            }
        }
        return SDLPlannedRequest("SetMediaClockTimer", .object(parameters))
    }
}
