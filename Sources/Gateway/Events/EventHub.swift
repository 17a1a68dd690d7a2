import Foundation
import Metrics
import SDLProtocol
import Synchronization

/// Fans the events of every app out to the clients of the event streams (ARCHITECTURE.md,
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

        public init(ringCapacity: Int = EventRing.defaultCapacity, clientQueueCapacity: Int = EventClientQueue.defaultCapacity, maximumClients: Int = 100) {
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

    private struct State: Sendable {
        var rings: [String: EventRing] = [:]
        var clients: [UInt64: Client] = [:]
        var nextClientID: UInt64 = 1
        var closed = false
    }

    public let limits: Limits
    private let state = Mutex(State())

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    public var clientCount: Int { state.withLock { $0.clients.count } }

    /// The seq of the app's newest event (0 before any).
    public func lastSeq(app: String) -> UInt64 { state.withLock { $0.rings[app]?.lastSeq ?? 0 } }

    /// Records an event of `app` and offers it to every client that wants it. Returns the event,
    /// how many clients it was queued for and how many dropped it.
    @discardableResult
    public func publish(app: String, type: String, data: SDLJSON, time: Date = .now) -> (event: GatewayEvent, delivered: Int, dropped: Int) {
        state.withLock { state in
            var ring = state.rings[app] ?? EventRing(app: app, capacity: limits.ringCapacity)
            let event = ring.append(type: type, data: data, time: time)
            state.rings[app] = ring
            var delivered = 0
            var dropped = 0
            for client in state.clients.values where client.app == nil || client.app == app {
                guard let filtered = client.filter.apply(event) else { continue }
                if client.queue.push(filtered) { delivered += 1 } else { dropped += 1 }
            }
            return (event, delivered, dropped)
        }
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
            if let app, let since, let ring = state.rings[app] {
                let (missed, events) = ring.events(after: since)
                queue.pushGap(app: app, missed: missed, lastSeq: since + missed)
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

    /// Forgets an app's kept events (the app was deleted); its clients' streams end.
    public func removeApp(_ app: String) {
        let queues = state.withLock { state in
            state.rings[app] = nil
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
