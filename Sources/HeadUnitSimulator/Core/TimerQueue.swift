import NIOCore
import SDLProtocol

/// Identifies a scheduled event of the head unit.
struct TimerID: Hashable, Sendable {
    let rawValue: UInt64
}

/// What happens when a timer fires.
enum TimerEvent: Sendable, Hashable {
    /// `--auto-activate`: bring the app on this session to FULL.
    case activate(session: UInt8)
    /// Answer the open interaction (Alert, Speak, Slider, PerformInteraction …) of the app.
    case finishInteraction(session: UInt8, correlationID: UInt32)
    /// Send the next OnAudioPassThru chunk.
    case audioPassThruChunk(session: UInt8)
    /// PerformAudioPassThru reached `maxDuration`.
    case audioPassThruEnd(session: UInt8)
    /// Send a notification (a `burst` fault paced at `ratePerSecond`).
    case notification(session: UInt8, name: String, parameters: SDLJSON)
    /// Answer a request that a fault delayed.
    case delayedResponse(session: UInt8, response: DelayedResponse)
}

/// A response held back by a `delayMs` fault.
struct DelayedResponse: Sendable, Hashable {
    var functionID: UInt32
    var correlationID: UInt32
    var parameters: SDLJSON
}

/// A pure timer table: the head unit schedules and cancels; its driver asks for the next deadline
/// and hands back the time. Nothing here reads a clock.
struct TimerQueue: Sendable {
    /// The most timers the control API may leave pending (paced bursts); everything else the head
    /// unit schedules is bounded by its apps.
    static let capacity = 100_000

    private var entries: [TimerID: (deadline: NIODeadline, event: TimerEvent)] = [:]
    private var nextID: UInt64 = 1

    mutating func schedule(at deadline: NIODeadline, _ event: TimerEvent) -> TimerID {
        let id = TimerID(rawValue: nextID)
        nextID += 1
        entries[id] = (deadline, event)
        return id
    }

    mutating func cancel(_ id: TimerID?) {
        guard let id else { return }
        entries[id] = nil
    }

    /// Removes every timer whose events match, e.g. all of one session's.
    mutating func cancelAll(where predicate: (TimerEvent) -> Bool) {
        entries = entries.filter { !predicate($0.value.event) }
    }

    /// The earliest deadline, if any.
    var nextDeadline: NIODeadline? { entries.values.map(\.deadline).min() }

    /// Removes and returns the earliest due timer, if one is due at `now`.
    mutating func popDue(now: NIODeadline) -> (TimerID, TimerEvent)? {
        guard let (id, entry) = entries.filter({ $0.value.deadline <= now }).min(by: { ($0.value.deadline, $0.key.rawValue) < ($1.value.deadline, $1.key.rawValue) })
        else { return nil }
        entries[id] = nil
        return (id, entry.event)
    }

    var count: Int { entries.count }
}
