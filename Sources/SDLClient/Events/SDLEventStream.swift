/// A bounded, single-consumer stream of events that never loses one silently: when the consumer
/// falls behind and ``capacity`` events wait, new events are dropped and counted, and the count is
/// delivered in their place, as the element `lost(count)` makes, before the next event after the
/// loss (or as soon as the consumer has read everything before it). Losses reported from an
/// upstream stream (``Source/reportLost(_:)``) join the count at the same place, so a consumer at
/// the end of a chain sees every loss along it, in order: delivered events plus the `lost` counts
/// add up to ``Source/published``.
///
/// Memory is bounded: at most ``capacity`` events and one loss marker before each of them (an
/// ``SDLDropQueue`` with ``SDLDropQueue/LossPlacement/whenReached``), plus the few events the
/// producer keeps past the bound (``Source/yieldKept(_:)``).
/// Iterating from two tasks at once is not supported (as with `AsyncStream`); a consumer whose
/// task is cancelled ends its iteration.
public struct SDLEventStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let queue: SDLDropQueue<Element, SDLLostCount>

    /// How many events may wait for the consumer.
    public var capacity: Int { queue.capacity }

    /// Slots a stream starts with; they double up to ``capacity`` when the consumer falls behind.
    /// Every app session has two streams (its own and its connection's), mostly empty: 16 slots of
    /// some 100-byte events were 3.4 KB of every idle session (heaptrack, issue "Performance").
    static var initialSlots: Int { 2 }

    /// A stream holding at most `capacity` waiting events; `lost` makes the element that reports
    /// a number of dropped events.
    public static func makeStream(
        capacity: Int, lost: @escaping @Sendable (Int) -> Element
    ) -> (stream: SDLEventStream, source: Source) {
        let queue = SDLDropQueue<Element, SDLLostCount>(capacity: capacity, initialSlots: initialSlots) { lost($0.lostCount) }
        return (SDLEventStream(queue: queue), Source(queue: queue))
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: queue)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let queue: SDLDropQueue<Element, SDLLostCount>

        public mutating func next() async -> Element? {
            await queue.next()
        }
    }

    /// The producer's side.
    public struct Source: Sendable {
        fileprivate let queue: SDLDropQueue<Element, SDLLostCount>

        /// Queues `element`, or counts it as lost when ``SDLEventStream/capacity`` events wait.
        /// Returns whether it was queued (or handed to a waiting consumer). After ``finish()``
        /// nothing is queued or counted.
        @discardableResult
        public func yield(_ element: Element) -> Bool {
            queue.push(element, loss: SDLLostCount(1)) == .queued
        }

        /// Queues `element` even when ``SDLEventStream/capacity`` events wait: for the few events
        /// a consumer must not lose (a connection's registration, once per link).
        public func yieldKept(_ element: Element) {
            queue.pushKept(element)
        }

        /// Counts `count` events lost before they reached this stream (dropped by an upstream
        /// stream); the consumer learns of them in order, with this stream's own losses.
        public func reportLost(_ count: Int) {
            queue.reportLost(SDLLostCount(count))
        }

        /// Ends the stream: the consumer reads what waits (and any loss count), then `nil`.
        public func finish() {
            queue.finish()
        }

        /// Returns once fewer than `threshold` events wait (at once if they do), the stream
        /// finished, or the calling task is cancelled: a producer that can pause (stop reading
        /// its socket) waits here instead of losing events to a slow consumer.
        public func waitForRoom(below threshold: Int) async {
            await queue.waitForRoom(below: threshold)
        }

        /// Producers no longer wait in ``waitForRoom(below:)``, now or later; the stream stays open.
        public func endPauses() {
            queue.endPauses()
        }

        /// Every event published into this stream before it finished, counting those lost here
        /// and those reported lost upstream.
        public var published: Int { queue.published }

        /// The events this stream itself dropped.
        public var dropped: Int { queue.dropped }

        /// How many events may wait for the consumer.
        public var capacity: Int { queue.capacity }

        /// How many events wait for the consumer now.
        public var waiting: Int { queue.waiting }
    }
}
