import Foundation
import NIOCore
import Synchronization

/// The bounded queue between the event hub and one client (a WebSocket or SSE stream): the hub
/// never waits for a client, and a client that reads too slowly loses events, which it is told
/// about with one `gap` event per run of losses instead of slowing anyone else or growing
/// memory (docs/architecture.md, Events). At most ``capacity`` events plus one gap marker are held.
public final class EventClientQueue: Sendable {
    public static let defaultCapacity = 1000

    private enum Item: Sendable {
        case event(GatewayEvent)
        case gap(app: String, missed: UInt64, lastSeq: UInt64)
    }

    /// What ``receive()`` hands out: an event, or a nudge (``nudge()``) while none came.
    public enum Delivery: Sendable {
        case event(GatewayEvent)
        case keepAlive
    }

    /// What ``poll()`` finds without waiting.
    public enum Poll: Sendable {
        case event(GatewayEvent)
        /// Nothing queued now: ``onReady(_:)``'s handler says when something is.
        case empty
        /// Finished, and everything queued was taken.
        case finished
    }

    private struct State: Sendable {
        var items = CircularBuffer<Item>()
        var waiter: CheckedContinuation<Delivery?, Never>?
        /// Set by ``onReady(_:)``: called (outside the lock) for each event queued and at the end.
        var readyHandler: (@Sendable () -> Void)?
        var finished = false
        var nudged = false
        var dropped: UInt64 = 0
        /// Deliveries in a row that found an item ready (no suspension).
        var readyInARow = 0
    }

    /// A reader that finds this many items ready in a row yields its thread once: a client
    /// draining a full queue must not hold a thread the sessions' readers need.
    static let yieldEvery = 32

    /// Slots a queue starts with; it doubles up to ``capacity`` when a client falls behind. An
    /// idle client holds 2 (an item is some 130 bytes: 16 slots were 2 KB of every idle client).
    static let initialSlots = 2

    public let capacity: Int
    private let state: Mutex<State>

    public init(capacity: Int = EventClientQueue.defaultCapacity) {
        precondition(capacity > 0, "a client queue holds at least one event")
        self.capacity = capacity
        self.state = Mutex(State(items: CircularBuffer(initialCapacity: min(capacity, Self.initialSlots))))
    }

    /// Events lost to this client so far.
    public var dropped: UInt64 { state.withLock { $0.dropped } }

    /// Offers an event; never waits. Returns false when it was dropped (the queue was full).
    @discardableResult
    public func push(_ event: GatewayEvent) -> Bool {
        let (waiter, accepted, handler) = state.withLock { state -> (CheckedContinuation<Delivery?, Never>?, Bool, (@Sendable () -> Void)?) in
            guard !state.finished else { return (nil, false, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, true, nil)
            }
            let queued = state.items.count - (state.items.last.map { if case .gap = $0 { 1 } else { 0 } } ?? 0)
            if queued >= capacity {
                state.dropped += 1
                if case .gap(let app, let missed, _) = state.items.last {
                    state.items[state.items.index(before: state.items.endIndex)] = .gap(app: app, missed: missed + 1, lastSeq: event.seq)
                } else {
                    state.items.append(.gap(app: event.app, missed: 1, lastSeq: event.seq))
                }
                return (nil, false, nil)
            }
            state.items.append(.event(event))
            return (nil, true, state.readyHandler)
        }
        waiter?.resume(returning: .event(event))
        handler?()
        return accepted
    }

    /// Puts a `gap` first (events lost before the client started, e.g. older than the ring).
    public func pushGap(app: String, missed: UInt64, lastSeq: UInt64) {
        guard missed > 0 else { return }
        push(GatewayEvent.gap(app: app, missed: missed, lastSeq: lastSeq, time: .now))
    }

    /// Ends the stream: ``next()`` returns what is queued, then nil.
    public func finish() {
        let (waiter, handler) = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return (state.waiter, state.readyHandler)
        }
        waiter?.resume(returning: nil)
        handler?()
    }

    /// For a reader that polls instead of waiting (``WebSocketEventPump``): `handler` is called
    /// whenever an event is queued and when the queue finishes, from the thread that did it, and
    /// once now if anything is ready already (a `since` replay queued before the reader came).
    /// It must return quickly: the hub calls it while it holds its lock.
    public func onReady(_ handler: @escaping @Sendable () -> Void) {
        let ready = state.withLock { state in
            state.readyHandler = handler
            return !state.items.isEmpty || state.finished
        }
        if ready { handler() }
    }

    /// The next event (a `gap` where events were lost) without waiting.
    public func poll() -> Poll {
        state.withLock { state in
            if let item = state.items.popFirst() { return .event(Self.event(item)) }
            return state.finished ? .finished : .empty
        }
    }

    /// Wakes the reader with ``Delivery/keepAlive`` if it is waiting, else makes its next wait
    /// return one at once (the SSE keep-alive comment of a quiet stream).
    public func nudge() {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery?, Never>? in
            guard !state.finished else { return nil }
            guard let waiter = state.waiter else {
                state.nudged = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .keepAlive)
    }

    /// The next event (a `gap` where events were lost), waiting for one; nil once finished or
    /// when the task is cancelled.
    public func next() async -> GatewayEvent? {
        while let delivery = await receive() {
            if case .event(let event) = delivery { return event }
        }
        return nil
    }

    /// The next event or keep-alive nudge, waiting for one; nil once finished or when the task
    /// is cancelled.
    public func receive() async -> Delivery? {
        let (ready, yields) = state.withLock { state -> (Delivery?, Bool) in
            guard let ready = Self.take(&state) else {
                state.readyInARow = 0
                return (nil, false)
            }
            state.readyInARow += 1
            guard state.readyInARow >= Self.yieldEvery else { return (ready, false) }
            state.readyInARow = 0
            return (ready, true)
        }
        if let ready {
            if yields { await Task.yield() }
            return ready
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery?, Never>) in
                let result = state.withLock { state -> Delivery?? in
                    if let ready = Self.take(&state) { return .some(ready) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let result { continuation.resume(returning: result) }
            }
        } onCancel: {
            finish()
        }
    }

    /// What is ready without waiting: a queued item, the end, or a pending nudge.
    private static func take(_ state: inout State) -> Delivery?? {
        if let item = state.items.popFirst() { return .some(.event(event(item))) }
        if state.finished { return .some(nil) }
        if state.nudged {
            state.nudged = false
            return .some(.keepAlive)
        }
        return nil
    }

    private static func event(_ item: Item) -> GatewayEvent {
        switch item {
        case .event(let event): event
        case .gap(let app, let missed, let lastSeq): .gap(app: app, missed: missed, lastSeq: lastSeq, time: .now)
        }
    }
}
