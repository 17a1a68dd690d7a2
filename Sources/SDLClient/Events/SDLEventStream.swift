import NIOCore
import Synchronization

/// A bounded, single-consumer stream of events that never loses one silently: when the consumer
/// falls behind and ``capacity`` events wait, new events are dropped and counted, and the count is
/// delivered in their place, as the element `lost(count)` makes, before the next event after the
/// loss (or as soon as the consumer has read everything before it). Losses reported from an
/// upstream stream (``Source/reportLost(_:)``) join the count at the same place, so a consumer at
/// the end of a chain sees every loss along it, in order: delivered events plus the `lost` counts
/// add up to ``Source/published``.
///
/// Memory is bounded: at most ``capacity`` events and one loss marker before each of them.
/// Iterating from two tasks at once is not supported (as with `AsyncStream`); a consumer whose
/// task is cancelled ends its iteration.
public struct SDLEventStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let storage: Storage

    /// How many events may wait for the consumer.
    public var capacity: Int { storage.capacity }

    /// A stream holding at most `capacity` waiting events; `lost` makes the element that reports
    /// a number of dropped events.
    public static func makeStream(
        capacity: Int, lost: @escaping @Sendable (Int) -> Element
    ) -> (stream: SDLEventStream, source: Source) {
        let storage = Storage(capacity: capacity, lost: lost)
        return (SDLEventStream(storage: storage), Source(storage: storage))
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(storage: storage)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let storage: Storage

        public mutating func next() async -> Element? {
            await storage.next()
        }
    }

    /// The producer's side.
    public struct Source: Sendable {
        fileprivate let storage: Storage

        /// Queues `element`, or counts it as lost when ``SDLEventStream/capacity`` events wait.
        /// Returns whether it was queued (or handed to a waiting consumer). After ``finish()``
        /// nothing is queued or counted.
        @discardableResult
        public func yield(_ element: Element) -> Bool {
            storage.yield(element)
        }

        /// Counts `count` events lost before they reached this stream (dropped by an upstream
        /// stream); the consumer learns of them in order, with this stream's own losses.
        public func reportLost(_ count: Int) {
            storage.reportLost(count)
        }

        /// Ends the stream: the consumer reads what waits (and any loss count), then `nil`.
        public func finish() {
            storage.finish()
        }

        /// Returns once fewer than `threshold` events wait (at once if they do), the stream
        /// finished, or the calling task is cancelled: a producer that can pause (stop reading
        /// its socket) waits here instead of losing events to a slow consumer.
        public func waitForRoom(below threshold: Int) async {
            await storage.waitForRoom(below: threshold)
        }

        /// Every event published into this stream before it finished, counting those lost here
        /// and those reported lost upstream.
        public var published: Int { storage.counts.published }

        /// The events this stream itself dropped.
        public var dropped: Int { storage.counts.dropped }

        /// How many events may wait for the consumer.
        public var capacity: Int { storage.capacity }

        /// How many events wait for the consumer now.
        public var waiting: Int { storage.state.withLock { $0.events } }
    }
}

extension SDLEventStream {
    fileprivate final class Storage: Sendable {
        enum Item {
            case event(Element)
            case lost(Int)
        }

        struct State {
            var items = CircularBuffer<Item>()
            /// Events in `items` (loss markers do not count against the capacity).
            var events = 0
            /// Losses not yet placed in `items`: they go before the next event queued.
            var unplacedLost = 0
            var waiter: CheckedContinuation<Element?, Never>?
            /// Producers waiting for fewer events than their threshold.
            var roomWaiters: [(threshold: Int, continuation: CheckedContinuation<Void, Never>)] = []
            var finished = false
            var published = 0
            var dropped = 0
        }

        let capacity: Int
        let lost: @Sendable (Int) -> Element
        let state = Mutex(State())

        init(capacity: Int, lost: @escaping @Sendable (Int) -> Element) {
            precondition(capacity > 0, "an event stream holds at least one event")
            self.capacity = capacity
            self.lost = lost
        }

        var counts: (published: Int, dropped: Int) {
            state.withLock { ($0.published, $0.dropped) }
        }

        func yield(_ element: Element) -> Bool {
            let (queued, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Element?, Never>?) in
                guard !state.finished else { return (false, nil) }
                state.published += 1
                if let waiter = state.waiter {
                    // A consumer waits only when nothing (not even a loss) is queued.
                    state.waiter = nil
                    return (true, waiter)
                }
                guard state.events < capacity else {
                    state.unplacedLost += 1
                    state.dropped += 1
                    return (false, nil)
                }
                if state.unplacedLost > 0 {
                    state.items.append(.lost(state.unplacedLost))
                    state.unplacedLost = 0
                }
                state.items.append(.event(element))
                state.events += 1
                return (true, nil)
            }
            waiter?.resume(returning: element)
            return queued
        }

        func reportLost(_ count: Int) {
            guard count > 0 else { return }
            let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
                guard !state.finished else { return nil }
                state.published += count
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                state.unplacedLost += count
                return nil
            }
            waiter?.resume(returning: lost(count))
        }

        func finish() {
            let (waiter, roomWaiters) = state.withLock { state in
                state.finished = true
                defer {
                    state.waiter = nil
                    state.roomWaiters = []
                }
                return (state.waiter, state.roomWaiters)
            }
            waiter?.resume(returning: nil)
            for roomWaiter in roomWaiters { roomWaiter.continuation.resume() }
        }

        func waitForRoom(below threshold: Int) async {
            // The common case, once per event: room already, no continuation.
            if state.withLock({ $0.finished || $0.events < threshold }) { return }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.finished || state.events < threshold || Task.isCancelled { return true }
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

        /// The producers that may go on now that `events` wait; removed from the state.
        private static func roomMade(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
            guard !state.roomWaiters.isEmpty else { return [] }
            var ready: [CheckedContinuation<Void, Never>] = []
            state.roomWaiters.removeAll { waiter in
                guard state.events < waiter.threshold else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }

        func next() async -> Element? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                    var producers: [CheckedContinuation<Void, Never>] = []
                    defer { for producer in producers { producer.resume() } }
                    let ready = state.withLock { state -> Element?? in
                        if let item = state.items.popFirst() {
                            switch item {
                            case .event(let element):
                                state.events -= 1
                                producers = Self.roomMade(&state)
                                return .some(element)
                            case .lost(let count):
                                return .some(lost(count))
                            }
                        }
                        if state.unplacedLost > 0 {
                            defer { state.unplacedLost = 0 }
                            return .some(lost(state.unplacedLost))
                        }
                        if state.finished || Task.isCancelled { return .some(nil) }
                        precondition(state.waiter == nil, "an SDLEventStream has one consumer at a time")
                        state.waiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
}
