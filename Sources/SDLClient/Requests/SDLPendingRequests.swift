import NIOCore
import SDLProtocol

/// The requests of one app session that wait for their responses, keyed by correlation id
/// (protocol spec §5.2; docs/protocol.md §c "Correlation ids", §k).
///
/// - Correlation ids are allocated counting up from 1, unique among the pending requests: the
///   spec has the head unit reject a request that reuses a pending id with INVALID_ID. After
///   `0xFFFFFFFE` (or a lower ``maximumCorrelationID``) the counter wraps to 1, skipping ids
///   still pending; `0` is never used, nor `0xFFFFFFFF`, which SDL Core
///   puts on notifications (docs/protocol.md §k).
/// - A response matches the pending request with its correlation id. A response carries the
///   request's function id too; a `GenericResponse` (function id 31, sent by older head units for
///   requests they do not know) also completes it, and a response with another function id is
///   still delivered, flagged as ``Match/functionMismatch(received:)``.
/// - Every entry has a deadline (see ``SDLRequestDeadlines``); the owner calls ``expire(now:)``
///   from a timer set at ``nextDeadline``. Time is passed in, never read.
/// - The table is bounded (``maximumPending``), so a stuck head unit cannot grow it without end.
///
/// `Waiter` is the owner's opaque payload per request, e.g. the continuation to resume.
public struct SDLPendingRequests<Waiter: Sendable>: Sendable {
    /// The function id of `GenericResponse` (MOBILE_API.xml 8.0.0; docs/protocol.md §g).
    public static var genericResponseFunctionID: UInt32 { 31 }
    /// The largest correlation id ever handed out: `0xFFFFFFFF` is the notifications' id.
    public static var largestCorrelationID: UInt32 { SDLRPCMessage.notificationCorrelationID - 1 }
    /// The default bound on pending requests, well below SDL Core's `PendingRequestsAmount`
    /// (5000 in the shipped ini, docs/protocol.md §e).
    public static var defaultMaximumPending: Int { 1000 }

    /// One pending request.
    public struct Entry: Sendable {
        public var correlationID: UInt32
        /// The function name, e.g. `Show`.
        public var function: String
        /// The function id sent in the binary header.
        public var functionID: UInt32
        public var deadline: NIODeadline
        public var waiter: Waiter
    }

    /// How a response matched its request.
    public enum Match: Sendable, Hashable {
        /// Same correlation id and function id.
        case exact
        /// A `GenericResponse` with the request's correlation id.
        case genericResponse
        /// The request's correlation id with another function id (`received`): delivered anyway.
        case functionMismatch(received: UInt32)
    }

    /// A request that got its response; it is no longer pending.
    public struct Completed: Sendable {
        public var request: Entry
        public var response: SDLRPCMessage
        public var match: Match
        public var correlationID: UInt32 { request.correlationID }
        public var waiter: Waiter { request.waiter }
    }

    /// A request whose deadline passed; it is no longer pending. ``error`` is ``SDLClientError/Code/timedOut``.
    public struct TimedOut: Sendable {
        public var request: Entry
        public var error: SDLClientError
        public var correlationID: UInt32 { request.correlationID }
        public var waiter: Waiter { request.waiter }
    }

    /// A request failed by ``failAll(_:)``; it is no longer pending.
    public struct Failed: Sendable {
        public var request: Entry
        public var error: SDLClientError
        public var correlationID: UInt32 { request.correlationID }
        public var waiter: Waiter { request.waiter }
    }

    public let maximumPending: Int
    /// The largest correlation id this table hands out before wrapping to 1.
    public let maximumCorrelationID: UInt32
    private var entries: [UInt32: Entry] = [:]
    private var nextCorrelationID: UInt32

    /// - Parameters:
    ///   - maximumPending: how many requests may wait at once (at least 1).
    ///   - maximumCorrelationID: where allocation wraps to 1; at most ``largestCorrelationID``
    ///     (lower it for peers with a smaller range: the spec caps v1 correlation ids at 65536,
    ///     docs/protocol.md §c "Protocol v1"). It must exceed `maximumPending`.
    ///   - firstCorrelationID: where allocation starts (tests use it to reach the wrap-around);
    ///     out-of-range values start at 1.
    public init(
        maximumPending: Int = defaultMaximumPending, maximumCorrelationID: UInt32 = largestCorrelationID, firstCorrelationID: UInt32 = 1
    ) {
        precondition(maximumPending >= 1, "maximumPending must be at least 1")
        let maximumCorrelationID = min(maximumCorrelationID, Self.largestCorrelationID)
        precondition(UInt64(maximumCorrelationID) > UInt64(maximumPending), "maximumCorrelationID must exceed maximumPending")
        self.maximumPending = maximumPending
        self.maximumCorrelationID = maximumCorrelationID
        self.nextCorrelationID = (1...maximumCorrelationID).contains(firstCorrelationID) ? firstCorrelationID : 1
    }

    /// How many requests are pending.
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    /// The correlation ids of the pending requests, ascending.
    public var correlationIDs: [UInt32] { entries.keys.sorted() }

    /// The pending request with `correlationID`, if any.
    public subscript(correlationID: UInt32) -> Entry? { entries[correlationID] }

    /// The earliest deadline of the pending requests, for the owner's timer; `nil` when none.
    /// A plain loop: it runs after every request and response, and a key path and a lazy map
    /// cost more than the scan (a key path is instantiated at run time on each use).
    public var nextDeadline: NIODeadline? {
        var earliest: NIODeadline?
        for entry in entries.values { earliest = earliest.earliest(entry.deadline) }
        return earliest
    }

    /// Adds a request and returns its correlation id, unique among the pending ones.
    /// Throws ``SDLClientError/Code/tooManyPendingRequests`` when ``maximumPending`` are waiting.
    public mutating func add(function: String, functionID: UInt32, deadline: NIODeadline, waiter: Waiter) throws(SDLClientError) -> UInt32 {
        guard entries.count < maximumPending else {
            throw SDLClientError(
                .tooManyPendingRequests,
                "\(function) not sent: \(entries.count) requests already wait for responses (limit \(maximumPending))"
            )
        }
        // Fewer than maximumPending ids are in use, and there are more ids than that: this ends.
        var candidate = nextCorrelationID
        while entries[candidate] != nil {
            candidate = successor(of: candidate)
        }
        nextCorrelationID = successor(of: candidate)
        entries[candidate] = Entry(correlationID: candidate, function: function, functionID: functionID, deadline: deadline, waiter: waiter)
        return candidate
    }

    /// Removes and returns the request that `response` answers, or `nil` when it answers nothing
    /// pending (a late response after a timeout, or not a response at all).
    public mutating func complete(with response: SDLRPCMessage) -> Completed? {
        guard response.rpcType == .response, let request = entries.removeValue(forKey: response.correlationID) else {
            return nil
        }
        let match: Match
        if response.functionID == request.functionID {
            match = .exact
        } else if response.functionID == Self.genericResponseFunctionID {
            match = .genericResponse
        } else {
            match = .functionMismatch(received: response.functionID)
        }
        return Completed(request: request, response: response, match: match)
    }

    /// Removes and returns the request with `correlationID` (its caller gave up on it).
    public mutating func remove(correlationID: UInt32) -> Entry? {
        entries.removeValue(forKey: correlationID)
    }

    /// Removes and returns every request whose deadline is at or before `now`, earliest first.
    public mutating func expire(now: NIODeadline) -> [TimedOut] {
        let due = entries.values.filter { $0.deadline <= now }
            .sorted { ($0.deadline, $0.correlationID) < ($1.deadline, $1.correlationID) }
        return due.map { request in
            entries.removeValue(forKey: request.correlationID)
            return TimedOut(
                request: request,
                error: SDLClientError(
                    .timedOut, "no response to \(request.function) (correlation id \(request.correlationID)) before its deadline")
            )
        }
    }

    /// Removes every request and returns them, in correlation id order, each failed with `error`
    /// (e.g. ``SDLClientError/Code/linkLost`` when the transport goes away).
    public mutating func failAll(_ error: SDLClientError) -> [Failed] {
        let all = entries.values.sorted { $0.correlationID < $1.correlationID }
        entries.removeAll()
        return all.map { Failed(request: $0, error: error) }
    }

    private func successor(of id: UInt32) -> UInt32 {
        id >= maximumCorrelationID ? 1 : id + 1
    }
}

extension SDLPendingRequests where Waiter == Void {
    /// Adds a request with no payload; see ``add(function:functionID:deadline:waiter:)``.
    public mutating func add(function: String, functionID: UInt32, deadline: NIODeadline) throws(SDLClientError) -> UInt32 {
        try add(function: function, functionID: functionID, deadline: deadline, waiter: ())
    }
}
