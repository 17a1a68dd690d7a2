import Synchronization
import Testing

@testable import SDLClient

/// ``SDLDropQueue``: the one bounded queue of the event hub's clients, the sessions' event streams
/// and the capture recorder. Bounded, drops the newest, counts, tells of losses in order.
@Suite("Drop queue: bounded, counting, one consumer", .timeLimit(.minutes(1)))
struct DropQueueTests {
    enum Item: Sendable, Hashable {
        case element(Int)
        case lost(Int)
    }

    typealias Queue = SDLDropQueue<Item, SDLLostCount>

    static func make(
        capacity: Int, maximumWeight: Int = .max, placement: Queue.LossPlacement = .whenReached, yieldEvery: Int? = nil
    ) -> Queue {
        Queue(capacity: capacity, maximumWeight: maximumWeight, lossPlacement: placement, yieldEvery: yieldEvery) { .lost($0.lostCount) }
    }

    @discardableResult
    static func push(_ queue: Queue, _ value: Int, weight: Int = 0) -> Queue.Pushed {
        queue.push(.element(value), weight: weight, loss: SDLLostCount(1))
    }

    /// Everything until the end, one by one.
    static func drain(_ queue: Queue) async -> [Item] {
        var items: [Item] = []
        while let item = await queue.next() { items.append(item) }
        return items
    }

    /// Returns once a consumer waits in the queue (it yields, it does not sleep).
    static func untilConsumerWaits(_ queue: Queue) async {
        while !queue.hasWaitingConsumer { await Task.yield() }
    }

    @Test("Within capacity: every element, in order, then nil after finish; counts add up")
    func order() async {
        let queue = Self.make(capacity: 5)
        for value in 1...5 { #expect(Self.push(queue, value) == .queued) }
        #expect(queue.waiting == 5)
        queue.finish()
        #expect(Self.push(queue, 6) == .finished)
        #expect(await Self.drain(queue) == (1...5).map(Item.element))
        #expect(await queue.next() == nil, "nil again after the end")
        #expect(queue.published == 5)
        #expect(queue.dropped == 0)
    }

    @Test("Full: the newest are dropped and counted, the waiting ones stay; one marker per run of losses", arguments: [1, 3, 64])
    func dropsNewest(capacity: Int) async {
        let queue = Self.make(capacity: capacity)
        for value in 0..<(capacity + 7) {
            #expect(Self.push(queue, value) == (value < capacity ? .queued : .dropped))
        }
        #expect(queue.waiting == capacity)
        #expect(queue.dropped == 7)
        #expect(queue.published == capacity + 7)
        queue.finish()
        #expect(await Self.drain(queue) == (0..<capacity).map(Item.element) + [.lost(7)])
    }

    @Test("Losses are told where they happened: before the next element queued after them, and as soon as reached")
    func markerInOrder() async {
        let queue = Self.make(capacity: 2)
        for value in 1...4 { Self.push(queue, value) }  // 3, 4 lost
        #expect(await queue.next() == .element(1))
        Self.push(queue, 5)  // after the loss
        Self.push(queue, 6)  // full again (2 and 5 wait): lost
        #expect(await queue.next() == .element(2))
        #expect(await queue.next() == .lost(2))
        #expect(await queue.next() == .element(5))
        #expect(await queue.next() == .lost(1), "a loss at the end is handed out once reached")
        #expect(queue.poll().isEmpty)
        #expect(queue.published == 6)
    }

    @Test("Before the next element: a loss at the end waits for the next element, or for finish")
    func beforeNextElement() async {
        let queue = Self.make(capacity: 2, placement: .beforeNextElement)
        for value in 1...4 { Self.push(queue, value) }
        #expect(await queue.nextBatch() == [.element(1), .element(2)], "the loss is not told yet")
        Self.push(queue, 5)
        for value in 6...8 { Self.push(queue, value) }  // 6 queued, 7 and 8 lost
        #expect(await queue.nextBatch() == [.lost(2), .element(5), .element(6)])
        queue.finish()
        #expect(await queue.nextBatch() == [.lost(2)], "finish tells the last loss")
        #expect(await queue.nextBatch() == nil)
    }

    @Test("Markers do not count against the capacity: one waits before each element at most")
    func markersAreFree() async {
        let queue = Self.make(capacity: 1, placement: .beforeNextElement)
        Self.push(queue, 1)
        Self.push(queue, 2)  // lost
        #expect(await queue.next() == .element(1))
        #expect(Self.push(queue, 3) == .queued, "the marker placed before it takes no room")
        #expect(queue.waiting == 1)
        #expect(Self.push(queue, 4) == .dropped)
        queue.finish()
        #expect(await Self.drain(queue) == [.lost(1), .element(3), .lost(1)])
    }

    @Test("A kept element is queued on a full queue, after the losses before it, and takes no room")
    func keptElement() async {
        let queue = Self.make(capacity: 1)
        Self.push(queue, 1)
        Self.push(queue, 2)  // lost
        queue.pushKept(.element(10))
        #expect(queue.waiting == 1, "the kept element is not counted against the capacity")
        #expect(Self.push(queue, 3) == .dropped)
        #expect(await queue.next() == .element(1))
        #expect(Self.push(queue, 4) == .queued)
        queue.finish()
        queue.pushKept(.element(11))
        #expect(await Self.drain(queue) == [.lost(1), .element(10), .lost(1), .element(4)])
        #expect(queue.published == 5, "1, 2, 10, 3 and 4; nothing after the end")
    }

    @Test("Weight: at most maximumWeight waits, but an empty queue takes one heavier element")
    func weight() async {
        let queue = Self.make(capacity: 10, maximumWeight: 100)
        #expect(Self.push(queue, 1, weight: 60) == .queued)
        #expect(Self.push(queue, 2, weight: 41) == .dropped)
        #expect(Self.push(queue, 3, weight: 40) == .queued)
        #expect(await queue.nextBatch() == [.element(1), .lost(1), .element(3)])
        #expect(Self.push(queue, 4, weight: 500) == .queued, "alone it may exceed the bound")
        #expect(Self.push(queue, 5, weight: 1) == .dropped)
        #expect(await queue.next() == .element(4))
        #expect(Self.push(queue, 6, weight: 60) == .queued)
        #expect(Self.push(queue, 7, weight: 40) == .queued, "taking an element gave its weight back")
        #expect(await queue.nextBatch() == [.lost(1), .element(6), .element(7)])
    }

    @Test("A custom loss adds up what the marker needs: the first and the last element lost")
    func customLoss() async {
        struct Span: SDLQueueLoss {
            var first: Int
            var last: Int
            var lostCount: Int
            mutating func absorb(_ later: Span) {
                last = later.last
                lostCount += later.lostCount
            }
        }
        let queue = SDLDropQueue<String, Span>(capacity: 1) { "lost \($0.lostCount): \($0.first)...\($0.last)" }
        for value in 10...14 { queue.push("\(value)", loss: Span(first: value, last: value, lostCount: 1)) }
        queue.finish()
        var seen: [String] = []
        while let text = await queue.next() { seen.append(text) }
        #expect(seen == ["10", "lost 4: 11...14"])
    }

    @Test("A waiting consumer is resumed by an element, a reported loss, a nudge and finish")
    func waitingConsumer() async {
        let queue = Self.make(capacity: 4)
        async let first = queue.next()
        await Self.untilConsumerWaits(queue)
        Self.push(queue, 1)
        #expect(await first == .element(1))

        async let second = queue.next()
        await Self.untilConsumerWaits(queue)
        queue.reportLost(SDLLostCount(3))
        #expect(await second == .lost(3))

        async let third = queue.receive()
        await Self.untilConsumerWaits(queue)
        queue.nudge()
        guard case .some(.nudge) = await third else { Issue.record("a nudge wakes receive()"); return }
        queue.nudge()  // none waits: the next receive() gets it at once
        guard case .some(.nudge) = await queue.receive() else { Issue.record("a pending nudge"); return }

        async let batch = queue.nextBatch()
        await Self.untilConsumerWaits(queue)
        Self.push(queue, 2)
        #expect(await batch == [.element(2)])

        async let last = queue.next()
        await Self.untilConsumerWaits(queue)
        queue.finish()
        #expect(await last == nil)
        #expect(queue.published == 5, "2 elements and 3 reported lost")
    }

    @Test("A cancelled consumer gets nil and leaves the queue as it was: not finished, nothing lost")
    func cancellation() async {
        let queue = Self.make(capacity: 4)
        for batch in [false, true] {
            let result = await withTaskGroup(of: [Item]?.self) { group in
                group.addTask { batch ? await queue.nextBatch() : (await queue.next()).map { [$0] } }
                await Self.untilConsumerWaits(queue)
                group.cancelAll()
                return await group.next() ?? []
            }
            #expect(result == nil)
            #expect(!queue.hasWaitingConsumer)
        }
        // Cancelled before it asks: what is ready is handed out, else nil at once.
        Self.push(queue, 1)
        let cancelled = await withTaskGroup(of: [Item]?.self) { group in
            group.cancelAll()
            group.addTask { await queue.nextBatch() }
            let ready = await group.next() ?? nil
            group.addTask { (await queue.next()).map { [$0] } }
            let none = await group.next() ?? nil
            return [ready, none]
        }
        #expect(cancelled == [[.element(1)], nil])
        #expect(Self.push(queue, 2) == .queued, "cancellation did not finish the queue")
        #expect(await queue.next() == .element(2))
    }

    @Test("Polling: the ready handler fires when something is queued, when a loss is reported, and at the end")
    func polled() {
        let queue = Self.make(capacity: 1)
        let calls = Mutex(0)
        queue.onReady { calls.withLock { $0 += 1 } }
        #expect(calls.withLock { $0 } == 0, "nothing ready yet")
        Self.push(queue, 1)
        Self.push(queue, 2)  // dropped: no call
        #expect(calls.withLock { $0 } == 1)
        #expect(queue.poll().element == .element(1))
        #expect(queue.poll().element == .lost(1))
        #expect(queue.poll().isEmpty)
        queue.reportLost(SDLLostCount(2))
        #expect(calls.withLock { $0 } == 2)
        #expect(queue.poll().element == .lost(2))
        queue.finish()
        queue.finish()  // once only
        #expect(calls.withLock { $0 } == 3)
        guard case .finished = queue.poll() else { Issue.record("a finished queue polls finished"); return }
    }

    @Test("waitForRoom: at once with room; a producer waiting goes on when the consumer takes, when finished or cancelled")
    func waitForRoom() async {
        let queue = Self.make(capacity: 4)
        await queue.waitForRoom(below: 1)  // empty: at once
        Self.push(queue, 1)
        Self.push(queue, 2)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await queue.waitForRoom(below: 2) }
            while queue.producersWaitingForRoom == 0 { await Task.yield() }
            #expect(await queue.next() == .element(1))
            await group.next()
        }
        #expect(queue.producersWaitingForRoom == 0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await queue.waitForRoom(below: 1) }
            while queue.producersWaitingForRoom == 0 { await Task.yield() }
            group.cancelAll()
            await group.next()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await queue.waitForRoom(below: 1) }
            while queue.producersWaitingForRoom == 0 { await Task.yield() }
            queue.finish()
            await group.next()
        }
        #expect(queue.producersWaitingForRoom == 0)
    }

    @Test("A consumer draining many ready elements yields now and then, and still gets them all in order")
    func yieldsWhileDraining() async {
        let queue = Self.make(capacity: 100, yieldEvery: 3)
        for value in 0..<100 { Self.push(queue, value) }
        queue.finish()
        #expect(await Self.drain(queue) == (0..<100).map(Item.element))
    }

    @Test("Many producers and one consumer: what is delivered plus the markers' counts is what was published")
    func concurrentProducers() async {
        let queue = Self.make(capacity: 8)
        let counted = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                var count = 0
                while let item = await queue.next() {
                    switch item {
                    case .element: count += 1
                    case .lost(let lost): count += lost
                    }
                }
                return count
            }
            await withTaskGroup(of: Void.self) { producers in
                for producer in 0..<4 {
                    producers.addTask {
                        for value in 0..<500 { Self.push(queue, producer * 1000 + value) }
                    }
                }
            }
            queue.finish()
            return await group.next() ?? -1
        }
        #expect(counted == 2000)
        #expect(queue.published == 2000)
    }
}

extension SDLDropQueue.Poll {
    var element: Element? {
        if case .element(let element) = self { element } else { nil }
    }

    var isEmpty: Bool {
        if case .empty = self { true } else { false }
    }
}
