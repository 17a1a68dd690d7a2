import NIOCore
import SDLProtocol

/// The decisions of a long-lived app session across connections (``SDLAppSession`` is its
/// driver), as a pure value: when to connect again and after which backoff, when to give up, what
/// `hashID` to ask to resume, and what a registration means for the app's subscriptions and icon.
///
/// - Every attempt asks to resume the latest OnHashChange `hashID` seen on any connection
///   (docs/protocol.md §k "Resumption").
/// - A refused registration (``SDLClientError/Code/registrationFailed``: DISALLOWED,
///   DUPLICATE_NAME …) would be refused again, so it closes the session with its reason; any
///   other end is retried after ``SDLBackoff``'s next delay, which a registration resets.
/// - Core resumed the app's data when it answers SUCCESS to a registration that carried a
///   `hashID`; otherwise (RESUME_FAILED, or nothing to resume) the session subscribes its
///   buttons and vehicle data again. The icon is set again unless the response says
///   `iconResumed: true`.
public struct SDLSessionSupervisor: Sendable {
    /// What to do after a connection ended.
    public enum Decision: Sendable, Hashable {
        /// Connect again after `delay`; `detail` says why, for the `reconnecting` event.
        case retry(after: TimeAmount, detail: String)
        /// Stop; `detail` is the reason to publish with `closed` (nil after ``close()``).
        case close(detail: String?)
    }

    /// What a successful registration means for the app.
    public struct Registered: Sendable, Hashable {
        /// Core restored the app's resumable data (subscriptions, menus …).
        public var resumed: Bool
        /// Subscribe the app's buttons and vehicle data again.
        public var resubscribes: Bool { !resumed }
        /// Upload and set the app icon again.
        public var restoresIcon: Bool
        /// For the `registered` event: the result code, `resumed (SUCCESS)` when resumed.
        public var detail: String
    }

    public private(set) var isClosing = false
    /// How many connections were attempted.
    public private(set) var attempts = 0
    /// The latest OnHashChange `hashID` of any connection.
    public private(set) var latestHashID: String?
    private var backoff: SDLBackoff

    public init(backoff: SDLBackoff = SDLBackoff()) {
        self.backoff = backoff
    }

    /// The app to register on the next connection (asking to resume ``latestHashID``), or nil
    /// once closing.
    public mutating func nextAttempt(for app: SDLAppConfiguration) -> SDLAppConfiguration? {
        guard !isClosing else { return nil }
        attempts += 1
        var app = app
        app.hashID = latestHashID ?? app.hashID
        return app
    }

    /// The RegisterAppInterface `response` to a registration that asked to resume
    /// `requestedHashID`; the backoff starts again.
    public mutating func registered(response: SDLRPCMessage, requestedHashID: String?) -> Registered {
        backoff.reset()
        let code = response.parameters["resultCode"]?.stringValue ?? "?"
        let resumed = code == "SUCCESS" && requestedHashID != nil
        return Registered(
            resumed: resumed,
            restoresIcon: response.parameters["iconResumed"]?.boolValue != true,
            detail: resumed ? "resumed (\(code))" : code
        )
    }

    /// A connection ended with `outcome` (nil: it closed without an error) after seeing
    /// `latestHashID`.
    public mutating func connectionEnded(_ outcome: (any Error)?, latestHashID: String?) -> Decision {
        self.latestHashID = latestHashID ?? self.latestHashID
        if let refused = outcome as? SDLClientError, refused.code == .registrationFailed {
            isClosing = true
            return .close(detail: refused.detail)
        }
        guard !isClosing else { return .close(detail: nil) }
        let delay = backoff.next()
        let why = outcome.map { "\($0)" } ?? "the link closed"
        return .retry(after: delay, detail: "\(why); retrying in \(delay.nanoseconds / 1_000_000) ms")
    }

    /// The owner closes the session: no further attempts.
    public mutating func close() {
        isClosing = true
    }
}
