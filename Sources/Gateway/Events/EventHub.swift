import Foundation
import Metrics
import NIOCore
import SDLProtocol
import Synchronization

/// Fans the events of every app out to the clients of the event streams (docs/architecture.md,
/// Events): one ``EventRing`` per app for `since` replays, one bounded ``EventClientQueue`` per
/// client, the client's ``EventFilter`` applied before its queue. Publishing never waits for a
/// client.
public final class EventHub: Sendable {
    public struct Limits: Sendable, Hashable {
        /// Events kept per app for `since` (default 10,000).
        public var ringCapacity: Int
        /// Events queued per client before it gets `gap` events (default 1,000).
        public var clientQueueCapacity: Int
        /// Clients connected at once (default 100).
        public var maximumClients: Int
        /// Bytes of event data kept per app for `since` (default 8 MiB): audio chunks are
        /// thousands of bytes each, so the count alone would not bound the ring.
        public var ringBytes: Int

        public init(
            ringCapacity: Int = EventRing.defaultCapacity, clientQueueCapacity: Int = EventClientQueue.defaultCapacity,
            maximumClients: Int = 100,
            ringBytes: Int = EventRing.defaultByteCapacity
        ) {
            self.ringBytes = ringBytes
            self.ringCapacity = ringCapacity
            self.clientQueueCapacity = clientQueueCapacity
            self.maximumClients = maximumClients
        }
    }

    /// One client's subscription; ``cancel()`` (or the hub's ``finishAll()``) ends it.
    public struct Subscription: Sendable {
        public let id: UInt64
        public let queue: EventClientQueue
        let hub: EventHub

        /// Replaces the client's filter (WebSocket `{"filter": …}`).
        public func setFilter(_ filter: EventFilter) { hub.setFilter(filter, for: id) }
        public func cancel() { hub.unsubscribe(id) }
    }

    private struct Client: Sendable {
        /// nil for the stream of every app.
        var app: String?
        var filter: EventFilter
        var queue: EventClientQueue
    }

    /// One incarnation of an app id: its ring and the token its publisher holds.
    private struct AppEvents: Sendable {
        var ring: EventRing
        var incarnation: UInt64
    }

    private struct State: Sendable {
        var rings: [String: AppEvents] = [:]
        /// The last seq of removed app ids, so that an app re-created under one continues after
        /// it; at most ``EventHub/retiredLimit``, the oldest removal forgotten first.
        var retired: [String: UInt64] = [:]
        var retiredOrder = CircularBuffer<String>()
        var nextIncarnation: UInt64 = 1
        var clients: [UInt64: Client] = [:]
        var nextClientID: UInt64 = 1
        var closed = false
    }

    public let limits: Limits
    private let state = Mutex(State())
    /// The event WebSockets that have not sent their close yet (graceful shutdown waits for them).
    public let webSockets = OpenWebSockets()

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How many removed app ids the hub remembers the last seq of (default 10,000: 8 bytes and
    /// the id each). An app re-created under one of them continues its numbering, so a client's
    /// `since` or `Last-Event-ID` from the removed app never skips the new app's events. An id
    /// removed longer ago, behind this many other removals, starts again at 1 — as after a restart
    /// of the gateway.
    public static let retiredLimit = 10_000

    public var clientCount: Int { state.withLock { $0.clients.count } }

    /// Apps with a ring now (removed apps have none).
    var appCount: Int { state.withLock { $0.rings.count } }

    /// Removed app ids whose last seq is remembered.
    var retiredCount: Int { state.withLock { $0.retired.count } }

    /// The seq of the app's newest event (0 before any; the last of a removed app with this id
    /// while it is remembered).
    public func lastSeq(app: String) -> UInt64 { state.withLock { $0.rings[app]?.ring.lastSeq ?? $0.retired[app] ?? 0 } }

    /// Starts a new incarnation of app `app`: an empty ring whose seqs continue after those of
    /// any earlier app with this id. Returns its token for ``publish(app:incarnation:type:data:time:)``.
    public func openApp(_ app: String) -> UInt64 {
        state.withLock { state in
            let incarnation = state.nextIncarnation
            state.nextIncarnation += 1
            let after = state.rings[app]?.ring.lastSeq ?? state.retired[app] ?? 0
            state.rings[app] = AppEvents(
                ring: EventRing(app: app, capacity: limits.ringCapacity, byteCapacity: limits.ringBytes, after: after),
                incarnation: incarnation)
            return incarnation
        }
    }

    /// Records an event of `app` and offers it to every client that wants it. Returns the event,
    /// how many clients it was queued for and how many dropped it.
    @discardableResult
    public func publish(
        app: String, type: String, data: SDLJSON, attachment: ByteBuffer? = nil, time: Date = .now
    ) -> (event: GatewayEvent, delivered: Int, dropped: Int) {
        state.withLock { state in
            if state.rings[app] == nil {
                let ring = EventRing(
                    app: app, capacity: limits.ringCapacity, byteCapacity: limits.ringBytes, after: state.retired[app] ?? 0)
                state.rings[app] = AppEvents(ring: ring, incarnation: 0)
            }
            return Self.publish(app: app, type: type, data: data, attachment: attachment, time: time, state: &state)
        }
    }

    /// Records an event of incarnation `incarnation` of `app` (``openApp(_:)``), as
    /// ``publish(app:type:data:time:)``; nil, recording nothing, once that incarnation was removed
    /// or replaced: a deleted app's last events never reach the app re-created under its id.
    @discardableResult
    public func publish(
        app: String, incarnation: UInt64, type: String, data: SDLJSON, attachment: ByteBuffer? = nil, time: Date = .now
    ) -> (event: GatewayEvent, delivered: Int, dropped: Int)? {
        state.withLock { state in
            guard state.rings[app]?.incarnation == incarnation else { return nil }
            return Self.publish(app: app, type: type, data: data, attachment: attachment, time: time, state: &state)
        }
    }

    private static func publish(
        app: String, type: String, data: SDLJSON, attachment: ByteBuffer?, time: Date, state: inout State
    ) -> (event: GatewayEvent, delivered: Int, dropped: Int) {
        // The callers made sure the ring exists.
        guard var event = state.rings[app]?.ring.append(type: type, data: data, time: time) else {
            preconditionFailure("no ring for \(app)")
        }
        event.attachment = attachment
        // Encoded once here; a client whose filter changes the event encodes its own copy.
        if !state.clients.isEmpty { event.encode() }
        var delivered = 0
        var dropped = 0
        // Clients with one filter share its result, and so its encoding (a few filters are
        // remembered; clients tend to ask alike).
        var results: [(filter: EventFilter, event: GatewayEvent?)] = []
        for client in state.clients.values where client.app == nil || client.app == app {
            let filtered: GatewayEvent?
            if let known = results.first(where: { $0.filter == client.filter }) {
                filtered = known.event
            } else {
                var result = client.filter.apply(event)
                result?.encode()
                filtered = result
                if results.count < 8 { results.append((client.filter, result)) }
            }
            guard let filtered else { continue }
            if client.queue.push(filtered) { delivered += 1 } else { dropped += 1 }
        }
        return (event, delivered, dropped)
    }

    /// A new client of one app's events (`app`) or of every app's (nil). With `since`, the
    /// app's kept events after it come first, after a `gap` for those no longer kept. Throws
    /// ``GatewayError/Code/tooManyClients`` at the client limit.
    public func subscribe(app: String?, filter: EventFilter, since: UInt64? = nil) throws(GatewayError) -> Subscription {
        try state.withLock { state throws(GatewayError) -> Subscription in
            guard !state.closed else { throw GatewayError(.notConnected, "the gateway is shutting down") }
            guard state.clients.count < limits.maximumClients else {
                throw GatewayError(.tooManyClients, "\(limits.maximumClients) event clients are connected already")
            }
            let queue = EventClientQueue(capacity: limits.clientQueueCapacity)
            if let app, let since, let ring = state.rings[app]?.ring {
                let (missed, events) = ring.events(after: since)
                queue.pushGap(app: app, missed: missed, lastSeq: max(since, ring.startSeq) + missed)
                for event in events { if let filtered = filter.apply(event) { queue.push(filtered) } }
            }
            let id = state.nextClientID
            state.nextClientID += 1
            state.clients[id] = Client(app: app, filter: filter, queue: queue)
            Self.recordClients(state.clients.count)
            return Subscription(id: id, queue: queue, hub: self)
        }
    }

    func setFilter(_ filter: EventFilter, for id: UInt64) {
        state.withLock { $0.clients[id]?.filter = filter }
    }

    func unsubscribe(_ id: UInt64) {
        let removed = state.withLock { state in
            defer { Self.recordClients(state.clients.count) }
            return state.clients.removeValue(forKey: id)
        }
        removed?.queue.finish()
    }

    /// `sdl_gateway_event_clients`: event-stream clients connected now.
    private static func recordClients(_ count: Int) {
        Gauge(label: "sdl_gateway_event_clients").record(count)
    }

    /// Forgets an app's kept events (the app was deleted) but remembers its last seq
    /// (``retiredLimit``); its clients' streams end.
    /// With `incarnation`, only that incarnation is removed (not an app re-created meanwhile).
    public func removeApp(_ app: String, incarnation: UInt64? = nil) {
        let queues = state.withLock { state -> [EventClientQueue] in
            guard incarnation == nil || state.rings[app]?.incarnation == incarnation else { return [] }
            if let removed = state.rings.removeValue(forKey: app) {
                if state.retired.updateValue(removed.ring.lastSeq, forKey: app) == nil { state.retiredOrder.append(app) }
                while state.retiredOrder.count > Self.retiredLimit, let oldest = state.retiredOrder.popFirst() {
                    state.retired[oldest] = nil
                }
            }
            let ids = state.clients.filter { $0.value.app == app }.map(\.key)
            return ids.compactMap { state.clients.removeValue(forKey: $0)?.queue }
        }
        queues.forEach { $0.finish() }
    }

    /// Ends every client's stream and refuses new ones (graceful shutdown).
    public func finishAll() {
        let queues = state.withLock { state in
            state.closed = true
            defer { state.clients = [:] }
            return state.clients.values.map(\.queue)
        }
        queues.forEach { $0.finish() }
    }
}
