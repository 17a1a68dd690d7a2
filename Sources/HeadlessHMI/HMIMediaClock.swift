import HeadUnitModel
import NIOCore
import SDLProtocol

/// The media clock of `UI.SetMediaClockTimer` (HMI_API.xml; MOBILE_API.xml `UpdateMode`), run as
/// the simulator runs its own, so that one renderer reads both: the request's fields plus
/// `positionSeconds`, `running`, `runningSinceUptimeMs` and, paused, `paused`
/// (``MediaClock/position(_:now:)`` tells where it is at a later time).
enum HMIMediaClock {
    /// The clock after `params` (Core checked them before sending) at `now`; nil once cleared.
    static func apply(_ params: [String: SDLJSON], to current: [String: SDLJSON]?, now: NIODeadline) -> [String: SDLJSON]? {
        let nowMs = Int64(now.uptimeNanoseconds / 1_000_000)
        var result: [String: SDLJSON]?
        switch params["updateMode"]?.stringValue ?? "CLEAR" {
        case "COUNTUP", "COUNTDOWN":
            var started = params
            if let start = MediaClock.seconds(of: params["startTime"]) {
                started["positionSeconds"] = .double(Double(start))
                started["running"] = true
                started["runningSinceUptimeMs"] = .int(nowMs)
            }
            result = started
        case "PAUSE":
            result = current
            if var paused = current, paused["running"]?.boolValue == true {
                paused["positionSeconds"] = .double(MediaClock.position(.object(paused), now: now) ?? 0)
                paused["running"] = false
                paused["runningSinceUptimeMs"] = nil
                paused["paused"] = true
                result = paused
            }
        case "RESUME":
            result = current
            if var resumed = current, resumed["running"]?.boolValue == false {
                resumed["running"] = true
                resumed["runningSinceUptimeMs"] = .int(nowMs)
                resumed["paused"] = nil
                result = resumed
            }
        default:  // CLEAR
            return nil
        }
        guard var clock = result else { return nil }
        for key in ["audioStreamingIndicator", "forwardSeekIndicator", "backSeekIndicator", "enableSeek"] where params[key] != nil {
            clock[key] = params[key]
        }
        return clock
    }
}
