@testable import Gateway
import Testing

/// ``KeyedSerializer``: one holder per key, a bounded line, cancelled waiters leave it, and a key
/// is forgotten once nobody holds or waits for it.
@Suite("KeyedSerializer", .timeLimit(.minutes(1)))
struct KeyedSerializerTests {
    /// Holds `key` until `release` finishes; `entered` says when it holds it.
    static func hold(
        _ serializer: KeyedSerializer, _ key: String, entered: AsyncStream<Void>.Continuation, release: AsyncStream<Void>
    ) async throws {
        try await serializer.run(key) { () async throws(GatewayError) -> Void in
            entered.yield()
            for await _ in release {}
        }
    }

    @Test("While a key is held a full line refuses with too-many-pending-requests, other keys run, and the key is forgotten after")
    func boundedLine() async throws {
        let serializer = KeyedSerializer(maximumWaiting: 0)
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Self.hold(serializer, "a", entered: enteredContinuation, release: release) }
            var iterator = entered.makeAsyncIterator()
            _ = await iterator.next()
            await #expect(throws: GatewayError(.tooManyPendingRequests, "0 requests for a are waiting already")) {
                try await serializer.run("a") { () async throws(GatewayError) in 1 }
            }
            #expect(try await serializer.run("b") { () async throws(GatewayError) in 2 } == 2)
            #expect(serializer.activeKeys == 1)
            releaseContinuation.finish()
            try await group.waitForAll()
        }
        #expect(serializer.activeKeys == 0)
        #expect(try await serializer.run("a") { () async throws(GatewayError) in 3 } == 3)
    }

    @Test("A waiter whose task is cancelled leaves the line with cancelled; the body never runs")
    func cancelledWaiter() async throws {
        let serializer = KeyedSerializer(maximumWaiting: 4)
        let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Self.hold(serializer, "a", entered: enteredContinuation, release: release) }
            var iterator = entered.makeAsyncIterator()
            _ = await iterator.next()
            let outcome = await withTaskGroup(of: GatewayError.Code?.self) { waiters in
                waiters.addTask {
                    do {
                        try await serializer.run("a") { () async throws(GatewayError) in }
                        return nil
                    } catch {
                        return (error as? GatewayError)?.code
                    }
                }
                waiters.cancelAll()
                return await waiters.next() ?? nil
            }
            #expect(outcome == .cancelled)
            releaseContinuation.finish()
            try await group.waitForAll()
        }
        #expect(serializer.activeKeys == 0)
    }
}
