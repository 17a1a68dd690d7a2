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
    /// `StopStreamingTimeout` passed since the app left FULL/LIMITED: its streaming services are
    /// no longer allowed (Core's end-stream timer, docs/protocol.md §k).
    case endStream(session: UInt8, service: StreamService)
}

/// A response held back by a `delayMs` fault.
struct DelayedResponse: Sendable, Hashable {
    var functionID: UInt32
    var correlationID: UInt32
    var parameters: SDLJSON
}

/// A pure timer table: the head unit schedules and cancels; its driver asks for the next deadline
/// and hands back the time. Nothing here reads a clock.
///
/// A binary min-heap ordered by (deadline, id) beside a table of the live timers: scheduling and
/// firing cost O(log n), a cancelled timer is dropped from the table at once and from the heap
/// when it reaches the top (the top is always live), and the heap is rebuilt when cancelled
/// entries outnumber live ones, so it never holds more than about twice the live timers.
/// Timers due at the same instant fire in the order they were scheduled.
struct TimerQueue: Sendable {
    /// The most timers the control API may leave pending (paced bursts); everything else the head
    /// unit schedules is bounded by its apps.
    static let capacity = 100_000

    private struct Key: Comparable, Sendable {
        var deadline: NIODeadline
        var id: UInt64
        static func < (a: Key, b: Key) -> Bool { (a.deadline, a.id) < (b.deadline, b.id) }
    }

    private var entries: [UInt64: TimerEvent] = [:]
    private var heap: [Key] = []
    private var nextID: UInt64 = 1

    mutating func schedule(at deadline: NIODeadline, _ event: TimerEvent) -> TimerID {
        let id = nextID
        nextID += 1
        entries[id] = event
        heap.append(Key(deadline: deadline, id: id))
        siftUp(heap.count - 1)
        return TimerID(rawValue: id)
    }

    mutating func cancel(_ id: TimerID?) {
        guard let id, entries.removeValue(forKey: id.rawValue) != nil else { return }
        dropCancelled()
    }

    /// Removes every timer whose events match, e.g. all of one session's.
    mutating func cancelAll(where predicate: (TimerEvent) -> Bool) {
        entries = entries.filter { !predicate($0.value) }
        dropCancelled()
    }

    /// The earliest deadline, if any.
    var nextDeadline: NIODeadline? { heap.first?.deadline }

    /// Removes and returns the earliest due timer, if one is due at `now`.
    mutating func popDue(now: NIODeadline) -> (TimerID, TimerEvent)? {
        guard let top = heap.first, top.deadline <= now, let event = entries.removeValue(forKey: top.id) else { return nil }
        removeTop()
        dropCancelled()
        return (TimerID(rawValue: top.id), event)
    }

    var count: Int { entries.count }

    // MARK: - The heap

    /// Keeps the top live, and the heap at most about twice the live timers.
    private mutating func dropCancelled() {
        if heap.count > 2 * entries.count + 64 {
            heap.removeAll { entries[$0.id] == nil }
            heap.sort()  // a sorted array is a valid min-heap
            return
        }
        while let top = heap.first, entries[top.id] == nil {
            removeTop()
        }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] < heap[parent] else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = heap[left] < heap[parent] ? left : parent
            let right = left + 1
            if right < heap.count, heap[right] < heap[smallest] { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
