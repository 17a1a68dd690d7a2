import NIOCore
import SDLProtocol

/// Keeps one app session below SDL Core's request flood limits, failing fast on the client
/// instead of being unregistered by the head unit (docs/protocol.md §e, smartDeviceLink.ini):
///
/// - `AppHMILevelNoneTimeScaleMaxRequests` / `AppHMILevelNoneRequestsTimeScale`: 100 requests
///   made in HMI NONE per 10 s; more unregisters the app with `REQUEST_WHILE_IN_NONE_HMI_LEVEL`.
/// - `AppTimeScaleMaxRequests` / `AppRequestsTimeScale`: 1000 requests per 10 s in any level;
///   more unregisters it with `TOO_MANY_REQUESTS`.
///
/// The defaults keep a safety margin (90 and 900), since Core counts from its own clock and the
/// two clocks never agree exactly. Windows slide: a request counts while it is younger than the
/// window. Requests made in NONE count for the NONE limit only while they are in its window, as in
/// Core, so leaving NONE lifts that limit. A refused request is not counted. Each window is an
/// ``SDLSlidingWindowLimiter`` (shared with the head-unit simulator), so memory is bounded by the
/// limits. Time is passed in, never read.
public struct SDLRequestRateLimiter: Sendable {
    /// A number of requests per sliding time window; 0 requests turns the limit off.
    public typealias Limit = SDLSlidingWindowLimiter.Limit

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
    private var noneWindow: SDLSlidingWindowLimiter
    private var anyWindow: SDLSlidingWindowLimiter

    public init(configuration: Configuration = .default) {
        self.configuration = configuration
        self.noneWindow = SDLSlidingWindowLimiter(configuration.hmiLevelNone)
        self.anyWindow = SDLSlidingWindowLimiter(configuration.anyLevel)
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

    /// Takes back a request counted by ``acquire(hmiLevel:now:)`` at `now` in `hmiLevel` that was
    /// never sent (it failed before reaching the head unit, or its caller was cancelled first).
    /// A request that was sent stays counted: the head unit counts it too.
    public mutating func release(hmiLevel: String, acquiredAt now: NIODeadline) {
        if hmiLevel == "NONE" { noneWindow.release(recordedAt: now) }
        anyWindow.release(recordedAt: now)
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

    /// How many requests are counted in the overall window (some may have left it already).
    public var counted: Int { anyWindow.count }

    /// Forgets every request (e.g. after registering again).
    public mutating func reset() {
        noneWindow.reset()
        anyWindow.reset()
    }

    private static func limited(_ limit: Limit, _ context: String, wait: TimeAmount) -> SDLClientError {
        let milliseconds = (wait.nanoseconds + 999_999) / 1_000_000
        let scope = context.isEmpty ? "" : " \(context)"
        return SDLClientError(
            .rateLimited,
            "head unit allows \(limit)\(scope); retry after \(milliseconds) ms"
        )
    }
}
