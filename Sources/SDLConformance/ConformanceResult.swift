/// One request's round trip: from the request written to its response read.
public struct ConformanceRoundTrip: Sendable, Hashable {
    public var function: String
    public var duration: Duration

    public init(function: String, duration: Duration) {
        self.function = function
        self.duration = duration
    }
}

/// What one case did.
public struct ConformanceResult: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        case pass, fail, skip
    }

    public var id: String
    public var title: String
    public var outcome: Outcome
    /// Why it failed or was skipped; nil when it passed.
    public var reason: String?
    /// The failure's code (``ConformanceFailure/Code``), or `error` for any other error.
    public var failureCode: String?
    /// "expected X, got Y" when the failure is a difference.
    public var difference: String?
    /// The reason, with the difference after it when there is one (what every report prints).
    public var message: String? {
        let parts = [reason, difference].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ": ")
    }
    public var duration: Duration
    /// Every request the case made, in order.
    public var roundTrips: [ConformanceRoundTrip]
    /// Deviations the case reports without failing on them: what breaks the spec inside a
    /// parameter it marks deprecated (``ConformanceDeprecation``).
    public var warnings: [String]

    public init(
        id: String, title: String, outcome: Outcome, reason: String? = nil, failureCode: String? = nil, difference: String? = nil,
        duration: Duration, roundTrips: [ConformanceRoundTrip] = [], warnings: [String] = []
    ) {
        self.id = id
        self.title = title
        self.outcome = outcome
        self.reason = reason
        self.failureCode = failureCode
        self.difference = difference
        self.duration = duration
        self.roundTrips = roundTrips
        self.warnings = warnings
    }
}

/// A whole run: the results in the order the cases ran, and where they ran.
public struct ConformanceReport: Sendable, Hashable {
    /// The head unit (`tcp://127.0.0.1:12345`).
    public var headUnit: String
    /// The driver's side, or nil when there was none.
    public var driver: String?
    public var results: [ConformanceResult]
    public var duration: Duration

    public init(headUnit: String, driver: String?, results: [ConformanceResult], duration: Duration) {
        self.headUnit = headUnit
        self.driver = driver
        self.results = results
        self.duration = duration
    }

    public func count(_ outcome: ConformanceResult.Outcome) -> Int {
        results.count { $0.outcome == outcome }
    }

    /// How many cases reported warnings.
    public var warned: Int {
        results.count { !$0.warnings.isEmpty }
    }

    /// Whether no case failed (the exit status 0 of `sdl-gateway check`).
    public var passed: Bool { count(.fail) == 0 }
}

extension Duration {
    /// Milliseconds, as a Double.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
