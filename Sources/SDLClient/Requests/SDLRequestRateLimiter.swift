import NIOCore

/// Keeps one app session below SDL Core's request flood limits, failing fast on the client
/// instead of being unregistered by the head unit (SDL-PROTOCOL.md §e, smartDeviceLink.ini):
///
/// - `AppHMILevelNoneTimeScaleMaxRequests` / `AppHMILevelNoneRequestsTimeScale`: 100 requests
///   made in HMI NONE per 10 s; more unregisters the app with `REQUEST_WHILE_IN_NONE_HMI_LEVEL`.
/// - `AppTimeScaleMaxRequests` / `AppRequestsTimeScale`: 1000 requests per 10 s in any level;
///   more unregisters it with `TOO_MANY_REQUESTS`.
///
/// The defaults keep a safety margin (90 and 900), since Core counts from its own clock and the
/// two clocks never agree exactly. Windows slide: a request counts while it is younger than the
/// window. Requests made in NONE count for the NONE limit only while they are in its window, as in
/// Core, so leaving NONE lifts that limit. A refused request is not counted. Memory is bounded:
/// each window keeps at most its limit of timestamps, in a ring. Time is passed in, never read.
public struct SDLRequestRateLimiter: Sendable {
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

    public struct Configuration: Sendable, Hashable {
        /// The limit on requests made in HMI NONE.
        public var hmiLevelNone: Limit
        /// The limit on all requests, whatever the level.
        public var anyLevel: Limit

        public init(hmiLevelNone: Limit, anyLevel: Limit) {
            self.hmiLevelNone = hmiLevelNone
            self.anyLevel = anyLevel
        }

        /// SDL Core 8.2's shipped limits exactly: 100 per 10 s in NONE, 1000 per 10 s overall.
        public static let sdlCore = Configuration(
            hmiLevelNone: Limit(maximumRequests: 100, window: .seconds(10)),
            anyLevel: Limit(maximumRequests: 1000, window: .seconds(10))
        )

        /// 90 % of ``sdlCore``: 90 per 10 s in NONE, 900 per 10 s overall.
        public static let `default` = Configuration(
            hmiLevelNone: Limit(maximumRequests: 90, window: .seconds(10)),
            anyLevel: Limit(maximumRequests: 900, window: .seconds(10))
        )
    }

    public let configuration: Configuration
    private var noneWindow: Window
    private var anyWindow: Window

    public init(configuration: Configuration = .default) {
        self.configuration = configuration
        self.noneWindow = Window(configuration.hmiLevelNone)
        self.anyWindow = Window(configuration.anyLevel)
    }

    /// Counts one request about to be sent at `now` while the app is in `hmiLevel` (`NONE`,
    /// `BACKGROUND`, `LIMITED` or `FULL`). Throws ``SDLClientError/Code/rateLimited`` when it
    /// would exceed a limit, with the wait in the detail (see ``retryAfter(hmiLevel:now:)``);
    /// nothing is counted then.
    public mutating func acquire(hmiLevel: String, now: NIODeadline) throws(SDLClientError) {
        let isNone = hmiLevel == "NONE"
        if isNone, let wait = noneWindow.wait(at: now) {
            throw Self.limited(configuration.hmiLevelNone, "in HMI NONE", wait: wait)
        }
        if let wait = anyWindow.wait(at: now) {
            throw Self.limited(configuration.anyLevel, "", wait: wait)
        }
        if isNone { noneWindow.record(now) }
        anyWindow.record(now)
    }

    /// How long from `now` until a request in `hmiLevel` may be sent; `nil` when one may be now.
    public func retryAfter(hmiLevel: String, now: NIODeadline) -> TimeAmount? {
        let none = hmiLevel == "NONE" ? noneWindow.wait(at: now) : nil
        let any = anyWindow.wait(at: now)
        switch (none, any) {
        case (nil, nil): return nil
        case (let wait?, nil), (nil, let wait?): return wait
        case (let first?, let second?): return max(first, second)
        }
    }

    /// Forgets every request (e.g. after registering again).
    public mutating func reset() {
        self = SDLRequestRateLimiter(configuration: configuration)
    }

    private static func limited(_ limit: Limit, _ context: String, wait: TimeAmount) -> SDLClientError {
        let milliseconds = (wait.nanoseconds + 999_999) / 1_000_000
        let scope = context.isEmpty ? "" : " \(context)"
        return SDLClientError(
            .rateLimited,
            "head unit allows \(limit)\(scope); retry after \(milliseconds) ms"
        )
    }

    /// The last `limit.maximumRequests` request times, in a ring.
    private struct Window: Sendable {
        let limit: Limit
        private var times: [NIODeadline] = []
        /// With a full ring, the index of the oldest time.
        private var oldest = 0

        init(_ limit: Limit) {
            self.limit = limit
        }

        /// The time until the oldest counted request leaves the window, when the window is full at
        /// `now`; `nil` when a request may be counted now.
        func wait(at now: NIODeadline) -> TimeAmount? {
            guard limit.maximumRequests > 0, times.count == limit.maximumRequests else { return nil }
            let leaves = times[oldest] + limit.window
            return leaves > now ? leaves - now : nil
        }

        mutating func record(_ time: NIODeadline) {
            guard limit.maximumRequests > 0 else { return }
            if times.count < limit.maximumRequests {
                times.append(time)
            } else {
                times[oldest] = time
                oldest = (oldest + 1) % limit.maximumRequests
            }
        }
    }
}
