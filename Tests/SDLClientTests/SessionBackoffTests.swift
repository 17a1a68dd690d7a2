import NIOCore
import SDLClient
import Testing

/// A deterministic generator (SplitMix64) for jitter tests.
struct SessionSeededGenerator: RandomNumberGenerator, Sendable {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Session reconnect backoff")
struct SessionBackoffTests {
    @Test("Without jitter the delays are 100 ms × 1.25ⁿ, capped at 5 s")
    func table() {
        var backoff = SDLBackoff(jitter: 0)
        var delays: [TimeAmount] = []
        for _ in 0..<22 { delays.append(backoff.next()) }
        #expect(delays[0] == .milliseconds(100))
        #expect(delays[1] == .milliseconds(125))
        #expect(delays[2] == .microseconds(156_250))
        #expect(delays[3] == .nanoseconds(195_312_500))
        #expect(delays[10] == .nanoseconds(931_322_575))
        #expect(delays[17].nanoseconds / 1_000_000 == 4440)
        #expect(delays[18] == .seconds(5))
        #expect(delays[21] == .seconds(5))
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(SDLBackoff.nominalDelay(attempt: 1_000_000) == .seconds(5))
    }

    @Test("Jitter keeps each delay within ±10 % of the nominal one and is deterministic with a seeded generator")
    func jitterBounds() {
        var backoff = SDLBackoff(jitter: 0.1, generator: SessionSeededGenerator(state: 42))
        var again = SDLBackoff(jitter: 0.1, generator: SessionSeededGenerator(state: 42))
        var distinct = Set<Int64>()
        for attempt in 0..<40 {
            let delay = backoff.next()
            let repeated = again.next()
            #expect(delay == repeated)
            let nominal = Double(SDLBackoff.nominalDelay(attempt: attempt).nanoseconds)
            let value = Double(delay.nanoseconds)
            #expect(value >= nominal * 0.9 - 1 && value <= nominal * 1.1 + 1, "attempt \(attempt): \(value) vs \(nominal)")
            distinct.insert(delay.nanoseconds)
        }
        #expect(distinct.count > 30)
    }

    @Test("reset() starts again at the first delay")
    func reset() {
        var backoff = SDLBackoff(jitter: 0)
        for _ in 0..<5 { _ = backoff.next() }
        #expect(backoff.attempt == 5)
        backoff.reset()
        #expect(backoff.attempt == 0)
        let first = backoff.next()
        #expect(first == .milliseconds(100))
    }
}
