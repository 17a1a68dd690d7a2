import NIOCore
import SDLProtocol

/// The media clock of SetMediaClockTimer (MOBILE_API.xml `UpdateMode`, HMI_API.xml
/// `UI.SetMediaClockTimer`) as the simulator and the headless HMI keep it: the request's fields
/// plus `positionSeconds`, `running` and `runningSinceUptimeMs`, so that one reader tells where
/// either is at a later time.
public enum MediaClock {
    /// `{hours, minutes, seconds}` (a `StartTime`) in seconds.
    public static func seconds(of time: SDLJSON?) -> Int64? {
        guard let time, let hours = time["hours"]?.intValue, let minutes = time["minutes"]?.intValue,
            let seconds = time["seconds"]?.intValue
        else {
            return nil
        }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// The clock's position in seconds at `now`, if it is set: counting up or down at
    /// `countRate` while it runs, held at `endTime`, never below 0.
    public static func position(_ clock: SDLJSON, now: NIODeadline) -> Double? {
        guard let position = clock["positionSeconds"]?.doubleValue else { return nil }
        guard clock["running"]?.boolValue == true, let since = clock["runningSinceUptimeMs"]?.intValue else { return position }
        let elapsed = Double(Int64(now.uptimeNanoseconds / 1_000_000) - since) / 1000 * (clock["countRate"]?.doubleValue ?? 1)
        var value = clock["updateMode"]?.stringValue == "COUNTDOWN" ? position - elapsed : position + elapsed
        if let end = seconds(of: clock["endTime"]) {
            value = clock["updateMode"]?.stringValue == "COUNTDOWN" ? max(value, Double(end)) : min(value, Double(end))
        }
        return max(0, value)
    }
}
