import NIOCore

/// A sliding-window request counter: at most ``Limit/maximumRequests`` requests in any
/// ``Limit/window``, a request counting while it is younger than the window. It is the shape of
/// SDL Core's request flood limits (smartDeviceLink.ini `AppTimeScaleMaxRequests` /
/// `AppRequestsTimeScale`: 1000 per 10 s; `AppHMILevelNoneTimeScaleMaxRequests` /
/// `AppHMILevelNoneRequestsTimeScale`: 100 per 10 s in HMI NONE; `GetVehicleDataRequest`: 5 per
/// 1 s; docs/protocol.md §e, §k). The head-unit simulator enforces these limits with it and the
/// app client stays below them with it.
///
/// Pure: times are passed in, and must not go backwards. Memory is bounded: the window keeps at
/// most ``Limit/maximumRequests`` times, dropping those that have left the window.
public struct SDLSlidingWindowLimiter: Sendable {
    /// A number of requests per sliding time window; 0 requests turns the limit off.
    public struct Limit: Sendable, Hashable, CustomStringConvertible {
        public var maximumRequests: Int
        public var window: TimeAmount

        public init(maximumRequests: Int, window: TimeAmount) {
            precondition(maximumRequests >= 0, "maximumRequests must not be negative")
            precondition(window > .nanoseconds(0), "window must be positive")
            self.maximumRequests = maximumRequests
            self.window = window
        }

        public var description: String {
            "\(maximumRequests) requests per \(window.nanoseconds / 1_000_000) ms"
        }
    }

    public let limit: Limit
    /// The times of the counted requests still in the window (or not yet pruned), oldest first.
    private var times: CircularBuffer<NIODeadline>

    public init(_ limit: Limit) {
        self.limit = limit
        self.times = CircularBuffer(initialCapacity: min(max(limit.maximumRequests, 1), 16))
    }

    /// How many requests are counted (some may have left the window since the last record).
    public var count: Int { times.count }

    /// How long from `now` until one more request may be counted; `nil` when one may be now.
    public func wait(at now: NIODeadline) -> TimeAmount? {
        guard limit.maximumRequests > 0, times.count >= limit.maximumRequests else { return nil }
        // The oldest of the last `maximumRequests` times decides: while it is in the window, the
        // window is full.
        let index = times.index(times.startIndex, offsetBy: times.count - limit.maximumRequests)
        let leaves = times[index] + limit.window
        return leaves > now ? leaves - now : nil
    }

    /// Whether `maximumRequests` requests are younger than the window at `now`.
    public func isFull(at now: NIODeadline) -> Bool {
        wait(at: now) != nil
    }

    /// Counts one request at `now` when the window has room, and returns `nil`; otherwise counts
    /// nothing and returns the wait until it has room.
    public mutating func acquire(at now: NIODeadline) -> TimeAmount? {
        if let wait = wait(at: now) { return wait }
        record(now)
        return nil
    }

    /// Counts one request at `now` unconditionally (a caller that checked ``isFull(at:)``
    /// itself). The window still keeps at most `maximumRequests` times.
    public mutating func record(_ now: NIODeadline) {
        guard limit.maximumRequests > 0 else { return }
        while let oldest = times.first, oldest + limit.window <= now { times.removeFirst() }
        if times.count >= limit.maximumRequests { times.removeFirst() }
        times.append(now)
    }

    /// Takes back the most recent request counted at `time` (it never went out), if there is one.
    public mutating func release(recordedAt time: NIODeadline) {
        guard let index = times.lastIndex(of: time) else { return }
        times.remove(at: index)
    }

    /// Forgets every request.
    public mutating func reset() {
        times.removeAll(keepingCapacity: true)
    }
}
