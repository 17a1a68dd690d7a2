import SDLClient
import Testing

/// ``SDLEventStream``: bounded, and every loss is reported where it happened.
@Suite("Events: bounded streams that report their losses", .timeLimit(.minutes(1)))
struct EventStreamTests {
    enum Item: Sendable, Hashable {
        case event(Int)
        case lost(Int)
    }

    static func make(capacity: Int) -> (SDLEventStream<Item>, SDLEventStream<Item>.Source) {
        SDLEventStream.makeStream(capacity: capacity) { .lost($0) }
    }

    /// Everything the stream holds until it ends.
    static func drain(_ stream: SDLEventStream<Item>) async -> [Item] {
        var items: [Item] = []
        for await item in stream { items.append(item) }
        return items
    }

    @Test("A burst larger than the buffer: the first events, then one lost count for the rest, then the end")
    func burst() async {
        let (stream, source) = Self.make(capacity: 4)
        for index in 1...10 { source.yield(.event(index)) }
        source.finish()
        #expect(await Self.drain(stream) == [.event(1), .event(2), .event(3), .event(4), .lost(6)])
        #expect(source.published == 10)
        #expect(source.dropped == 6)
    }

    @Test("The lost count comes exactly where the events were lost, before the next event kept")
    func placement() async {
        let (stream, source) = Self.make(capacity: 2)
        var iterator = stream.makeAsyncIterator()
        for index in 1...4 { source.yield(.event(index)) }  // 3 and 4 are lost
        #expect(await iterator.next() == .event(1))
        source.yield(.event(5))  // room for one: the loss goes before it
        source.yield(.event(6))  // lost
        source.finish()
        var rest: [Item] = []
        while let item = await iterator.next() { rest.append(item) }
        #expect(rest == [.event(2), .lost(2), .event(5), .lost(1)])
    }

    @Test("A chain of two full buffers: the consumer's events plus lost counts equal everything published upstream")
    func chain() async {
        let (upstream, upstreamSource) = Self.make(capacity: 3)
        let (downstream, downstreamSource) = Self.make(capacity: 5)
        for index in 1...50 { upstreamSource.yield(.event(index)) }
        upstreamSource.finish()
        // The session's pump: events pass on, upstream losses are reported downstream.
        for await item in upstream {
            switch item {
            case .event: downstreamSource.yield(item)
            case .lost(let count): downstreamSource.reportLost(count)
            }
        }
        for index in 51...60 { downstreamSource.yield(.event(index)) }  // the session's own events
        downstreamSource.finish()
        let items = await Self.drain(downstream)
        let delivered = items.filter { if case .event = $0 { true } else { false } }.count
        let lost = items.reduce(0) { total, item in if case .lost(let count) = item { total + count } else { total } }
        #expect(delivered == 5)
        #expect(delivered + lost == 60)
        #expect(downstreamSource.published == 60)
        #expect(lost == upstreamSource.dropped + downstreamSource.dropped)
        #expect(items.first == .event(1))
    }

    @Test("A waiting consumer gets the next event or loss report directly, and nil when the stream finishes")
    func waiting() async {
        let (stream, source) = Self.make(capacity: 1)
        await withTaskGroup(of: [Item].self) { group in
            group.addTask { await Self.drain(stream) }
            source.yield(.event(1))
            source.reportLost(3)
            source.finish()
            source.yield(.event(2))  // after the end: neither queued nor counted
            let items = await group.next() ?? []
            // The consumer may have taken each as it came or found them queued: same sequence.
            #expect(items == [.event(1), .lost(3)])
        }
        #expect(source.published == 4)
    }

    @Test("A producer that waits for room (SDLEventOverflow.pauseReading) loses nothing: it goes on once the consumer has read enough")
    func waitForRoom() async throws {
        let (stream, source) = Self.make(capacity: 4)
        for index in 1...4 { source.yield(.event(index)) }
        #expect(source.waiting == 4)
        await source.waitForRoom(below: 5)  // room for one already: returns at once
        try await withThrowingTaskGroup(of: [Item].self) { group in
            group.addTask {
                // The producer: 20 more events, each only when fewer than 2 wait.
                for index in 5...24 {
                    await source.waitForRoom(below: 2)
                    source.yield(.event(index))
                }
                source.finish()
                return []
            }
            group.addTask { await Self.drain(stream) }
            var results: [[Item]] = []
            for try await result in group { results.append(result) }
            #expect(results.flatMap { $0 } == (1...24).map { .event($0) }, "every event, in order, no loss")
        }
        #expect(source.dropped == 0)
    }

    @Test("Waiting for room ends when the stream finishes or the waiting task is cancelled, though the stream is still full")
    func waitForRoomEnds() async {
        let (stream, source) = Self.make(capacity: 1)
        source.yield(.event(1))
        // Nothing reads: only the cancellation can end this wait (a hang fails the suite's time limit).
        let endedCancelled = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await source.waitForRoom(below: 1)
                return Task.isCancelled
            }
            group.cancelAll()
            return await group.next() ?? false
        }
        #expect(endedCancelled)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await source.waitForRoom(below: 1) }
            source.finish()
            await group.waitForAll()
        }
        // Neither wait took the event: it is still there, and then the end.
        #expect(await Self.drain(stream) == [.event(1)])
    }

    @Test("Cancelling a waiting consumer ends its iteration")
    func cancelled() async {
        let (stream, _) = Self.make(capacity: 1)
        await withTaskGroup(of: Item?.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.cancelAll()
            #expect(await group.next() == .some(nil))
        }
    }
}
