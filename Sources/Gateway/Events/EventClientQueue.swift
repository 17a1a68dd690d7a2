import Foundation
import SDLClient

/// The bounded queue between the event hub and one client (a WebSocket or SSE stream): the hub
/// never waits for a client, and a client that reads too slowly loses events, which it is told
/// about with one `gap` event per run of losses instead of slowing anyone else or growing
/// memory (docs/architecture.md, Events). At most ``capacity`` events plus one gap marker before
/// each are held. The queue is an ``SDLDropQueue`` whose loss is the gap: the app of the first
/// event lost, how many, and the `seq` of the last; the `gap` is handed out as soon as the client
/// reaches it, its time the moment it was placed before the next event or handed out.
public final class EventClientQueue: Sendable {
    public static let defaultCapacity = 1000

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

    /// A run of events lost to this client: told as one `gap` event.
    struct Gap: SDLQueueLoss {
        var app: String
        var missed: UInt64
        var lastSeq: UInt64

        var lostCount: Int { Int(clamping: missed) }

        mutating func absorb(_ later: Gap) {
            missed += later.missed
            lastSeq = later.lastSeq
        }
    }

    /// A reader that finds this many items ready in a row yields its thread once: a client
    /// draining a full queue must not hold a thread the sessions' readers need.
    static let yieldEvery = 32

    /// Slots a queue starts with; it doubles up to ``capacity`` when a client falls behind. An
    /// idle client holds 2 (an item is some 130 bytes: 16 slots were 2 KB of every idle client).
    static let initialSlots = 2

    public var capacity: Int { queue.capacity }
    private let queue: SDLDropQueue<GatewayEvent, Gap>

    public init(capacity: Int = EventClientQueue.defaultCapacity) {
        precondition(capacity > 0, "a client queue holds at least one event")
        queue = SDLDropQueue(capacity: capacity, yieldEvery: Self.yieldEvery, initialSlots: Self.initialSlots) { gap in
            .gap(app: gap.app, missed: gap.missed, lastSeq: gap.lastSeq, time: .now)
        }
    }

    /// Events lost to this client so far.
    public var dropped: UInt64 { UInt64(queue.dropped) }

    /// Offers an event; never waits. Returns false when it was dropped (the queue was full) or
    /// the queue finished.
    @discardableResult
    public func push(_ event: GatewayEvent) -> Bool {
        queue.push(event, loss: Gap(app: event.app, missed: 1, lastSeq: event.seq)) == .queued
    }

    /// Puts a `gap` first (events lost before the client started, e.g. older than the ring).
    public func pushGap(app: String, missed: UInt64, lastSeq: UInt64) {
        guard missed > 0 else { return }
        push(GatewayEvent.gap(app: app, missed: missed, lastSeq: lastSeq, time: .now))
    }

    /// Ends the stream: ``next()`` returns what is queued, then nil.
    public func finish() {
        queue.finish()
    }

    /// For a reader that polls instead of waiting (``WebSocketEventPump``): `handler` is called
    /// whenever an event is queued and when the queue finishes, from the thread that did it, and
    /// once now if anything is ready already (a `since` replay queued before the reader came).
    /// It must return quickly: the hub calls it while it holds its lock.
    public func onReady(_ handler: @escaping @Sendable () -> Void) {
        queue.onReady(handler)
    }

    /// The next event (a `gap` where events were lost) without waiting.
    public func poll() -> Poll {
        switch queue.poll() {
        case .element(let event): .event(event)
        case .empty: .empty
        case .finished: .finished
        }
    }

    /// Wakes the reader with ``Delivery/keepAlive`` if it is waiting, else makes its next wait
    /// return one at once (the SSE keep-alive comment of a quiet stream).
    public func nudge() {
        queue.nudge()
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
    /// is cancelled (which finishes the queue: the client is gone).
    public func receive() async -> Delivery? {
        let delivery = await withTaskCancellationHandler {
            await queue.receive()
        } onCancel: {
            queue.finish()
        }
        switch delivery {
        case .element(let event): return .event(event)
        case .nudge: return .keepAlive
        case nil: return nil
        }
    }
}
