/// Why a conformance case failed: what the head unit should have done and what it did.
///
/// Codes are stable (the JUnit and HTML reports carry them as the failure's `type`).
public struct ConformanceFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A response or notification differs from what the case expects (a result code, a value).
        case unexpected
        /// A response or notification breaks MOBILE_API.xml: a mandatory parameter absent, a
        /// wrong type, a value out of range.
        case invalidMessage
        /// Nothing came within the case's (scaled) time.
        case timedOut
        /// The SDL link failed: no connection, no registration, a request that could not be sent.
        case link
        /// The driver's side (control API or headless HMI) refused or failed an action.
        case driver
    }

    public var code: Code
    /// One line: what happened.
    public var message: String
    /// What the case expected, when the failure is a difference.
    public var expected: String?
    /// What came instead.
    public var got: String?

    public init(_ code: Code, _ message: String, expected: String? = nil, got: String? = nil) {
        self.code = code
        self.message = message
        self.expected = expected
        self.got = got
    }

    /// "expected X, got Y" when there is a difference, else nil.
    public var difference: String? {
        guard let expected, let got else { return nil }
        return "expected \(expected), got \(got)"
    }

    public var description: String {
        difference.map { "\(message): \($0)" } ?? message
    }
}

/// Why a case did not run: it needs what this run does not have (a driver, an activated app).
public struct ConformanceSkip: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }

    /// The reason of every case that needs the driver in a run without one.
    public static let noDriver = ConformanceSkip("needs the driver's side: give --control URL or --hmi ws://HOST:PORT")
}
