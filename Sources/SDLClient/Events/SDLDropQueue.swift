import NIOCore
import Synchronization

/// What a ``SDLDropQueue`` remembers of elements it lost until it tells its consumer: a count, and
/// whatever else the consumer's marker needs (the event gap's app and last sequence number).
public protocol SDLQueueLoss: Sendable {
    /// How many elements this loss stands for.
    var lostCount: Int { get }
    /// Adds a later loss to this one (they are told as one marker).
    mutating func absorb(_ later: Self)
}

/// A loss that is only a count.
public struct SDLLostCount: SDLQueueLoss, Hashable {
    public var lostCount: Int

    public init(_ count: Int) { self.lostCount = count }

    public mutating func absorb(_ later: SDLLostCount) { lostCount += later.lostCount }
}

/// The one bounded queue between a producer that must never wait and one consumer (docs/architecture.md,
/// Events): the event hub and a client's WebSocket or SSE stream (`EventClientQueue`), a connection and
/// its session's event stream (``SDLEventStream``), a connection and its capture file writer
/// (``SDLCaptureTap``).
///
/// At most ``capacity`` elements wait, and at most ``maximumWeight`` of their weight (bytes, for a
/// capture) unless the queue is empty. An element offered beyond that is dropped — the newest is
/// lost, what waits stays — and counted, and the consumer is told with one marker element per run of
/// losses, made by `marker` from the ``SDLQueueLoss`` the run added up, in order: after every element
/// queued before the loss and before every one queued after it. ``LossPlacement`` says whether a loss
/// at the end is handed out as soon as the consumer reaches it or only before the next element (or at
/// ``finish()``). Markers do not count against the bounds: at most one waits before each element;
/// nor do the few elements a producer must not lose (``pushKept(_:)``).
///
/// One consumer at a time takes elements one by one (``next()``, ``receive()``, ``poll()``) or all
/// that wait at once (``nextBatch()``); a consumer whose task is cancelled gets `nil` (the queue is not
/// finished by it). A producer that can pause may ``waitForRoom(below:)`` instead of losing elements.
public final class SDLDropQueue<Element: Sendable, Loss: SDLQueueLoss>: Sendable {
    /// Where a run of losses that nothing followed yet waits.
    public enum LossPlacement: Sendable {
        /// The consumer gets the marker as soon as it has taken everything before it (a live
        /// consumer learns at once).
        case whenReached
        /// The marker goes before the next element queued, or last at ``finish()`` (a file gets the
        /// marker where the elements resume, stamped with that moment).
        case beforeNextElement
    }

    /// What ``receive()`` hands out: an element (or a marker), or a ``nudge()`` while none came.
    public enum Delivery: Sendable {
        case element(Element)
        case nudge
    }

    /// What ``poll()`` finds without waiting.
    public enum Poll: Sendable {
        case element(Element)
        /// Nothing waits now: ``onReady(_:)``'s handler says when something does.
        case empty
        /// Finished, and everything queued was taken.
        case finished
    }

    private enum Item: Sendable {
        case element(Element, weight: Int)
        case marker(Element)
    }

    private enum Waiter: Sendable {
        case one(CheckedContinuation<Delivery?, Never>)
        case batch(CheckedContinuation<[Element]?, Never>)
    }

    private struct State: Sendable {
        var items: CircularBuffer<Item>
        /// Elements in `items` (markers do not count against the bounds).
        var elements = 0
        var weight = 0
        /// Losses not yet placed in `items` or handed out.
        var pending: Loss?
        var waiter: Waiter?
        /// Producers waiting for fewer elements than their threshold.
        var roomWaiters: [(threshold: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Set by ``onReady(_:)``: called (outside the lock) whenever something becomes ready.
        var readyHandler: (@Sendable () -> Void)?
        var finished = false
        /// ``endPauses()`` came: producers no longer wait for room.
        var pausesEnded = false
        var nudged = false
        var published = 0
        var dropped = 0
        /// Deliveries in a row that found something ready (no suspension).
        var readyInARow = 0
    }

    /// How many elements may wait for the consumer.
    public let capacity: Int
    /// How much weight may wait for the consumer (an element that alone is heavier is let into an
    /// empty queue).
    public let maximumWeight: Int
    public let lossPlacement: LossPlacement
    /// A consumer of ``receive()`` that finds this many deliveries ready in a row yields its thread
    /// once (one draining a full queue must not hold a thread producers need); `nil`: never.
    public let yieldEvery: Int?
    private let marker: @Sendable (Loss) -> Element
    private let state: Mutex<State>

    /// - Parameters:
    ///   - initialSlots: the slots the queue starts with; they double up to `capacity` when the
    ///     consumer falls behind (an idle queue of many stays small).
    ///   - marker: the element that tells of a run of losses; called under the queue's lock when
    ///     the marker is placed or handed out, so it may read a clock in order with the elements.
    public init(
        capacity: Int, maximumWeight: Int = .max, lossPlacement: LossPlacement = .whenReached, yieldEvery: Int? = nil,
        initialSlots: Int = 16, marker: @escaping @Sendable (Loss) -> Element
    ) {
        precondition(capacity > 0, "a queue holds at least one element")
        self.capacity = capacity
        self.maximumWeight = max(1, maximumWeight)
        self.lossPlacement = lossPlacement
        self.yieldEvery = yieldEvery.map { max(1, $0) }
        self.marker = marker
        self.state = Mutex(State(items: CircularBuffer(initialCapacity: max(1, min(capacity, initialSlots)))))
    }

    // MARK: The producer's side

    /// What became of an element offered with ``push(_:weight:loss:)``.
    public enum Pushed: Sendable, Hashable {
        /// Queued, or handed to the waiting consumer.
        case queued
        /// Dropped and counted: the queue was full.
        case dropped
        /// Ignored: the queue finished.
        case finished
    }

    /// Queues the element `make` builds (under the queue's lock, so elements that read a clock are
    /// in time order), or drops it and adds `loss` to the run of losses when ``capacity`` elements or
    /// ``maximumWeight`` wait. Never waits. After ``finish()`` nothing is queued or counted.
    @discardableResult
    public func push(_ make: @autoclosure () -> Element, weight: Int = 0, loss: @autoclosure () -> Loss) -> Pushed {
        let (pushed, wake) = state.withLock { state -> (Pushed, Wake) in
            guard !state.finished else { return (.finished, Wake()) }
            state.published += 1
            guard state.elements < capacity, state.elements == 0 || state.weight + weight <= maximumWeight else {
                state.dropped += 1
                let loss = loss()
                if state.pending == nil { state.pending = loss } else { state.pending!.absorb(loss) }
                return (.dropped, Wake())
            }
            placePending(&state)
            state.items.append(.element(make(), weight: weight))
            state.elements += 1
            state.weight += weight
            return (.queued, wakeConsumer(&state))
        }
        wake.resume()
        return pushed
    }

    /// Queues `element` whatever waits, in order with the others: for the few elements a consumer
    /// must get (a connection's registration, one per link), which the bounds do not count, as
    /// they do not count markers. After ``finish()`` it is ignored.
    public func pushKept(_ element: Element) {
        let wake = state.withLock { state -> Wake in
            guard !state.finished else { return Wake() }
            state.published += 1
            placePending(&state)
            state.items.append(.marker(element))
            return wakeConsumer(&state)
        }
        wake.resume()
    }

    /// Counts a loss that happened before the queue (an upstream queue's marker): the consumer gets
    /// it in order with this queue's own losses.
    public func reportLost(_ loss: Loss) {
        guard loss.lostCount > 0 else { return }
        let wake = state.withLock { state -> Wake in
            guard !state.finished else { return Wake() }
            state.published += loss.lostCount
            if state.pending == nil { state.pending = loss } else { state.pending!.absorb(loss) }
            return lossPlacement == .whenReached ? wakeConsumer(&state) : Wake()
        }
        wake.resume()
    }

    /// Ends the queue: the consumer takes what waits (and a last marker for losses nothing
    /// followed), then `nil`. Producers waiting for room go on. Once only; later calls do nothing.
    public func finish() {
        let wake = state.withLock { state -> Wake in
            guard !state.finished else { return Wake() }
            state.finished = true
            placePending(&state)
            var wake = wakeConsumer(&state)
            wake.producers += state.roomWaiters.map(\.continuation)
            state.roomWaiters = []
            return wake
        }
        wake.resume()
    }

    /// Producers no longer wait for room, now or later (their source is going away: nothing it
    /// still offers should wait for a consumer that may never take it). The queue stays open.
    public func endPauses() {
        let producers = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pausesEnded = true
            defer { state.roomWaiters = [] }
            return state.roomWaiters.map(\.continuation)
        }
        for producer in producers { producer.resume() }
    }

    /// Wakes a consumer waiting in ``receive()`` with ``Delivery/nudge``, or makes its next call
    /// return one at once (a keep-alive of a quiet stream).
    public func nudge() {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery?, Never>? in
            guard !state.finished else { return nil }
            guard case .one(let waiter) = state.waiter else {
                state.nudged = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: .nudge)
    }

    /// Returns once fewer than `threshold` elements wait (at once if they do), the queue finished,
    /// or the calling task is cancelled: a producer that can pause (stop reading its socket) waits
    /// here instead of losing elements to a slow consumer.
    public func waitForRoom(below threshold: Int) async {
        // The common case, once per element: room already, no continuation.
        if state.withLock({ $0.finished || $0.pausesEnded || $0.elements < threshold }) { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.finished || state.pausesEnded || state.elements < threshold || Task.isCancelled { return true }
                    state.roomWaiters.append((threshold, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let roomWaiters = state.withLock { state in
                defer { state.roomWaiters = [] }
                return state.roomWaiters
            }
            for roomWaiter in roomWaiters { roomWaiter.continuation.resume() }
        }
    }

    // MARK: What is counted

    /// Elements offered before ``finish()``, those dropped included, plus the losses reported
    /// (``reportLost(_:)``): what the consumer takes and the markers' counts add up to it.
    public var published: Int { state.withLock { $0.published } }
    /// Elements this queue dropped.
    public var dropped: Int { state.withLock { $0.dropped } }
    /// Elements waiting for the consumer (markers not counted).
    public var waiting: Int { state.withLock { $0.elements } }

    /// Whether a consumer waits in ``receive()`` or ``nextBatch()`` now (for tests).
    var hasWaitingConsumer: Bool { state.withLock { $0.waiter != nil } }
    /// How many producers wait in ``waitForRoom(below:)`` now (for tests).
    var producersWaitingForRoom: Int { state.withLock { $0.roomWaiters.count } }

    // MARK: The consumer's side

    /// For a consumer that polls instead of waiting: `handler` is called whenever something is
    /// queued (and no waiting consumer took it) and at the end, from the thread that did it (after
    /// the queue's lock is released), and once now if anything is ready already. It must return
    /// quickly: producers call it as they push.
    public func onReady(_ handler: @escaping @Sendable () -> Void) {
        let ready = state.withLock { state in
            state.readyHandler = handler
            return !state.items.isEmpty || state.finished || (lossPlacement == .whenReached && state.pending != nil)
        }
        if ready { handler() }
    }

    /// The next element (or marker) without waiting.
    public func poll() -> Poll {
        var producers: [CheckedContinuation<Void, Never>] = []
        defer { for producer in producers { producer.resume() } }
        return state.withLock { state in
            if let element = takeOne(&state, producers: &producers) { return .element(element) }
            return state.finished ? .finished : .empty
        }
    }

    /// The next element (or marker), waiting for one; `nil` once finished and everything was taken,
    /// or when the calling task is cancelled.
    public func next() async -> Element? {
        while let delivery = await receive() {
            if case .element(let element) = delivery { return element }
        }
        return nil
    }

    /// The next element (or marker) or nudge, waiting for one; `nil` once finished and everything
    /// was taken, or when the calling task is cancelled.
    public func receive() async -> Delivery? {
        var producers: [CheckedContinuation<Void, Never>] = []
        let (ready, yields) = state.withLock { state -> (Delivery??, Bool) in
            guard let ready = take(&state, producers: &producers) else {
                state.readyInARow = 0
                return (nil, false)
            }
            state.readyInARow += 1
            guard let yieldEvery, state.readyInARow >= yieldEvery else { return (ready, false) }
            state.readyInARow = 0
            return (ready, true)
        }
        for producer in producers { producer.resume() }
        if let ready {
            if yields { await Task.yield() }
            return ready
        }
        return await park(take, as: Waiter.one)
    }

    /// Everything that waits, in order, waiting until something does; `nil` once finished and
    /// everything was taken, or when the calling task is cancelled.
    public func nextBatch() async -> [Element]? {
        await park(takeBatch, as: Waiter.batch)
    }

    /// Takes what `take` finds ready, or parks the one consumer as `waiter` until a producer, the
    /// end or a cancellation wakes it: the shared half of ``next()`` and ``nextBatch()``.
    private func park<Value: Sendable>(
        _ take: (inout State, inout [CheckedContinuation<Void, Never>]) -> Value??,
        as waiter: @escaping (CheckedContinuation<Value?, Never>) -> Waiter
    ) async -> Value? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                var producers: [CheckedContinuation<Void, Never>] = []
                let ready = state.withLock { state -> Value?? in
                    if let ready = take(&state, &producers) { return ready }
                    if Task.isCancelled { return .some(nil) }
                    precondition(state.waiter == nil, "an SDLDropQueue has one consumer at a time")
                    state.waiter = waiter(continuation)
                    return nil
                }
                for producer in producers { producer.resume() }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancelWaiter()
        }
    }

    // MARK: Under the lock

    /// Continuations to resume once the lock is released, and the ready handler to call.
    private struct Wake {
        var one: (CheckedContinuation<Delivery?, Never>, Delivery?)?
        var batch: (CheckedContinuation<[Element]?, Never>, [Element]?)?
        var producers: [CheckedContinuation<Void, Never>] = []
        var handler: (@Sendable () -> Void)?

        func resume() {
            if let (continuation, delivery) = one { continuation.resume(returning: delivery) }
            if let (continuation, batch) = batch { continuation.resume(returning: batch) }
            for producer in producers { producer.resume() }
            handler?()
        }
    }

    private func cancelWaiter() {
        let waiter = state.withLock { state -> Waiter? in
            defer { state.waiter = nil }
            return state.waiter
        }
        switch waiter {
        case .one(let continuation): continuation.resume(returning: nil)
        case .batch(let continuation): continuation.resume(returning: nil)
        case nil: break
        }
    }

    /// Puts the pending loss's marker at the end of `items`.
    private func placePending(_ state: inout State) {
        guard let pending = state.pending else { return }
        state.pending = nil
        state.items.append(.marker(marker(pending)))
    }

    /// Hands what is ready to the waiting consumer; with none, says so to the ready handler.
    private func wakeConsumer(_ state: inout State) -> Wake {
        var wake = Wake()
        switch state.waiter {
        case .one(let continuation):
            guard let ready = take(&state, producers: &wake.producers) else { return wake }
            state.waiter = nil
            wake.one = (continuation, ready)
        case .batch(let continuation):
            guard let ready = takeBatch(&state, producers: &wake.producers) else { return wake }
            state.waiter = nil
            wake.batch = (continuation, ready)
        case nil:
            wake.handler = state.readyHandler
        }
        return wake
    }

    /// The next element or marker, if one is ready.
    private func takeOne(_ state: inout State, producers: inout [CheckedContinuation<Void, Never>]) -> Element? {
        if let item = state.items.popFirst() {
            switch item {
            case .element(let element, let weight):
                state.elements -= 1
                state.weight -= weight
                producers += Self.roomMade(&state)
                return element
            case .marker(let element):
                return element
            }
        }
        guard lossPlacement == .whenReached, let pending = state.pending else { return nil }
        state.pending = nil
        return marker(pending)
    }

    /// What ``receive()`` gets without waiting: an element, the end (`.some(nil)`), a pending
    /// nudge, or nothing ready (`nil`).
    private func take(_ state: inout State, producers: inout [CheckedContinuation<Void, Never>]) -> Delivery?? {
        if let element = takeOne(&state, producers: &producers) { return .some(.element(element)) }
        if state.finished { return .some(nil) }
        if state.nudged {
            state.nudged = false
            return .some(.nudge)
        }
        return nil
    }

    /// What ``nextBatch()`` gets without waiting: everything ready, the end (`.some(nil)`), or
    /// nothing ready (`nil`).
    private func takeBatch(_ state: inout State, producers: inout [CheckedContinuation<Void, Never>]) -> [Element]?? {
        var batch: [Element] = []
        while let element = takeOne(&state, producers: &producers) { batch.append(element) }
        if !batch.isEmpty { return .some(batch) }
        return state.finished ? .some(nil) : nil
    }

    /// The producers that may go on now that fewer elements wait; removed from the state.
    private static func roomMade(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.roomWaiters.isEmpty else { return [] }
        var ready: [CheckedContinuation<Void, Never>] = []
        state.roomWaiters.removeAll { waiter in
            guard state.elements < waiter.threshold else { return false }
            ready.append(waiter.continuation)
            return true
        }
        return ready
    }
}
