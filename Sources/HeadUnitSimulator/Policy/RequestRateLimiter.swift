import NIOCore

/// SDL Core's request flood limits for one app, with time passed in.
///
/// - In HMI NONE, more than `AppHMILevelNoneTimeScaleMaxRequests` (100) requests made in NONE
///   within `AppHMILevelNoneRequestsTimeScale` (10 s): Core unregisters the app with
///   OnAppInterfaceUnregistered(REQUEST_WHILE_IN_NONE_HMI_LEVEL).
/// - In any level, more than `AppTimeScaleMaxRequests` (1000) requests within
///   `AppRequestsTimeScale` (10 s): unregistered with TOO_MANY_REQUESTS.
/// - More than `GetVehicleDataRequest` (5 per 1 s) GetVehicleData calls, or `ReadDIDRequest`
///   (5 per 1 s) ReadDID calls: that request is answered REJECTED and the app stays
///   (SDL-PROTOCOL.md §k: seven calls in a row gave five SUCCESS, then REJECTED).
///
/// Windows slide: a request counts against a limit while it is younger than the window. A
/// request that gets ``Outcome/unregister(reason:)`` or ``Outcome/reject`` is not counted for
/// the limit that refused it. Each window keeps at most its limit of timestamps.
public struct RequestRateLimiter: Sendable {
    /// A count of requests per time window; a count of 0 turns the limit off (Core's code
    /// default for `AppTimeScaleMaxRequests`).
    public struct Limit: Sendable, Hashable {
        public var maximumRequests: Int
        public var window: TimeAmount

        public init(maximumRequests: Int, window: TimeAmount) {
            precondition(maximumRequests >= 0, "maximumRequests must not be negative")
            self.maximumRequests = maximumRequests
            self.window = window
        }
    }

    public struct Configuration: Sendable, Hashable {
        /// `AppHMILevelNoneTimeScaleMaxRequests` / `AppHMILevelNoneRequestsTimeScale`: 100 per 10 s.
        public var hmiLevelNone: Limit
        /// `AppTimeScaleMaxRequests` / `AppRequestsTimeScale`: 1000 per 10 s.
        public var anyLevel: Limit
        /// Per-function limits answered with REJECTED: GetVehicleData and ReadDID, 5 per 1 s.
        public var perFunction: [String: Limit]

        public init(hmiLevelNone: Limit, anyLevel: Limit, perFunction: [String: Limit]) {
            self.hmiLevelNone = hmiLevelNone
            self.anyLevel = anyLevel
            self.perFunction = perFunction
        }

        /// SDL Core 8.2's shipped smartDeviceLink.ini.
        public static let sdlCore = Configuration(
            hmiLevelNone: Limit(maximumRequests: 100, window: .seconds(10)),
            anyLevel: Limit(maximumRequests: 1000, window: .seconds(10)),
            perFunction: [
                "GetVehicleData": Limit(maximumRequests: 5, window: .seconds(1)),
                "ReadDID": Limit(maximumRequests: 5, window: .seconds(1)),
            ]
        )
    }

    public enum Outcome: Sendable, Hashable {
        /// Process the request.
        case allow
        /// Answer the request with REJECTED (`success: false`).
        case reject
        /// Send OnAppInterfaceUnregistered with this `AppInterfaceUnregisteredReason`
        /// (`TOO_MANY_REQUESTS` or `REQUEST_WHILE_IN_NONE_HMI_LEVEL`) and unregister the app.
        case unregister(reason: String)
    }

    public let configuration: Configuration
    private var noneWindow: TimestampWindow
    private var anyWindow: TimestampWindow
    private var functionWindows: [String: TimestampWindow] = [:]

    public init(configuration: Configuration = .sdlCore) {
        self.configuration = configuration
        noneWindow = TimestampWindow(configuration.hmiLevelNone)
        anyWindow = TimestampWindow(configuration.anyLevel)
    }

    /// Counts a request for `function` that arrived at `now` while the app was in `hmiLevel`,
    /// and says what the head unit does with it.
    public mutating func check(_ function: String, hmiLevel: String, now: NIODeadline) -> Outcome {
        if hmiLevel == "NONE", noneWindow.isFull(at: now) {
            return .unregister(reason: "REQUEST_WHILE_IN_NONE_HMI_LEVEL")
        }
        if anyWindow.isFull(at: now) {
            return .unregister(reason: "TOO_MANY_REQUESTS")
        }
        if hmiLevel == "NONE" { noneWindow.record(now) }
        anyWindow.record(now)
        if let limit = configuration.perFunction[function] {
            var window = functionWindows[function] ?? TimestampWindow(limit)
            defer { functionWindows[function] = window }
            if window.isFull(at: now) { return .reject }
            window.record(now)
        }
        return .allow
    }

    /// Forgets every request (after the app registers again).
    public mutating func reset() {
        self = RequestRateLimiter(configuration: configuration)
    }
}

/// The last `limit.maximumRequests` request times, in a ring.
struct TimestampWindow: Sendable {
    let limit: RequestRateLimiter.Limit
    private var times: [NIODeadline] = []
    private var next = 0

    init(_ limit: RequestRateLimiter.Limit) {
        self.limit = limit
        times.reserveCapacity(min(limit.maximumRequests, 1024))
    }

    /// Whether `limit.maximumRequests` requests are already younger than the window at `now`.
    func isFull(at now: NIODeadline) -> Bool {
        guard limit.maximumRequests > 0, times.count == limit.maximumRequests else { return false }
        // With a full ring, the slot `next` holds the oldest of the last maximumRequests times.
        return now - times[next] < limit.window
    }

    mutating func record(_ time: NIODeadline) {
        guard limit.maximumRequests > 0 else { return }
        if times.count < limit.maximumRequests {
            times.append(time)
        } else {
            times[next] = time
            next = (next + 1) % limit.maximumRequests
        }
    }
}
