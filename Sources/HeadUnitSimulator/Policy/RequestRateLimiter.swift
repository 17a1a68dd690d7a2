import NIOCore
import SDLProtocol

/// SDL Core's request flood limits for one app, with time passed in.
///
/// - In HMI NONE, more than `AppHMILevelNoneTimeScaleMaxRequests` (100) requests made in NONE
///   within `AppHMILevelNoneRequestsTimeScale` (10 s): Core unregisters the app with
///   OnAppInterfaceUnregistered(REQUEST_WHILE_IN_NONE_HMI_LEVEL).
/// - In any level, more than `AppTimeScaleMaxRequests` (1000) requests within
///   `AppRequestsTimeScale` (10 s): unregistered with TOO_MANY_REQUESTS.
/// - More than `GetVehicleDataRequest` (5 per 1 s) GetVehicleData calls, or `ReadDIDRequest`
///   (5 per 1 s) ReadDID calls: that request is answered REJECTED and the app stays
///   (docs/protocol.md §k: seven calls in a row gave five SUCCESS, then REJECTED).
///
/// Windows slide: a request counts against a limit while it is younger than the window. A
/// request that gets ``Outcome/unregister(reason:)`` or ``Outcome/reject`` is not counted for
/// the limit that refused it. Each window is an ``SDLSlidingWindowLimiter`` (shared with the app
/// client), keeping at most its limit of timestamps.
public struct RequestRateLimiter: Sendable {
    /// A count of requests per time window; a count of 0 turns the limit off (Core's code
    /// default for `AppTimeScaleMaxRequests`).
    public typealias Limit = SDLSlidingWindowLimiter.Limit

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
    private var noneWindow: SDLSlidingWindowLimiter
    private var anyWindow: SDLSlidingWindowLimiter
    private var functionWindows: [String: SDLSlidingWindowLimiter] = [:]

    public init(configuration: Configuration = .sdlCore) {
        self.configuration = configuration
        noneWindow = SDLSlidingWindowLimiter(configuration.hmiLevelNone)
        anyWindow = SDLSlidingWindowLimiter(configuration.anyLevel)
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
            // In place: the window is not copied on each request.
            if functionWindows[function, default: SDLSlidingWindowLimiter(limit)].acquire(at: now) != nil { return .reject }
        }
        return .allow
    }

    /// Forgets every request (after the app registers again).
    public mutating func reset() {
        self = RequestRateLimiter(configuration: configuration)
    }
}
