import NIOCore

/// Delays between reconnection attempts: 100 ms × 1.25ⁿ, capped at 5 s, each multiplied by a
/// random factor in 1 ± ``jitter`` so that many sessions that lost the same head unit do not
/// reconnect in lockstep. Core takes up to 10 s to answer StartService while its HMI is not
/// ready (docs/protocol.md §k), so the cap keeps retries gentle without making recovery slow.
///
/// Nominal delays (before jitter) for attempt n, as returned by successive ``next()`` calls:
///
/// | n | delay      | n  | delay      | n   | delay   |
/// |---|------------|----|------------|-----|---------|
/// | 0 | 100 ms     | 6  | 381.47 ms  | 12  | 1.455 s |
/// | 1 | 125 ms     | 7  | 476.84 ms  | 13  | 1.819 s |
/// | 2 | 156.25 ms  | 8  | 596.05 ms  | 14  | 2.274 s |
/// | 3 | 195.31 ms  | 9  | 745.06 ms  | 15  | 2.842 s |
/// | 4 | 244.14 ms  | 10 | 931.32 ms  | 16  | 3.553 s |
/// | 5 | 305.18 ms  | 11 | 1.164 s    | 17  | 4.441 s |
/// |   |            |    |            | 18+ | 5 s     |
///
/// The cap is reached at the 19th attempt, about 27 s after the first failure. ``reset()`` after
/// a connection succeeds starts again at 100 ms. Randomness is injected, so tests are deterministic.
public struct SDLBackoff: Sendable {
    /// The first delay.
    public static let initialDelay = TimeAmount.milliseconds(100)
    /// The growth per attempt.
    public static let factor = 1.25
    /// The largest nominal delay.
    public static let maximumDelay = TimeAmount.seconds(5)

    /// The jitter fraction: each delay is the nominal delay × a uniform factor in 1 ± jitter.
    public let jitter: Double
    /// How many delays ``next()`` has returned since the last ``reset()`` (it stops counting at 64).
    public private(set) var attempt = 0
    private var generator: any RandomNumberGenerator & Sendable

    /// - Parameters:
    ///   - jitter: the fraction each delay may vary by, 0 ..< 1 (default ±10 %).
    ///   - generator: where the jitter comes from; pass a seeded generator in tests.
    public init(jitter: Double = 0.1, generator: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        precondition(jitter >= 0 && jitter < 1, "jitter must be in 0 ..< 1")
        self.jitter = jitter
        self.generator = generator
    }

    /// The delay before attempt `attempt` without jitter: 100 ms × 1.25^attempt, at most 5 s.
    public static func nominalDelay(attempt: Int) -> TimeAmount {
        let cap = Double(maximumDelay.nanoseconds)
        var nanoseconds = Double(initialDelay.nanoseconds)
        for _ in 0..<min(max(0, attempt), attemptsToCap) where nanoseconds < cap {
            nanoseconds *= factor
        }
        return nanoseconds >= cap ? maximumDelay : .nanoseconds(Int64(nanoseconds.rounded()))
    }

    /// The delay to wait before the next attempt; each call moves one attempt further.
    public mutating func next() -> TimeAmount {
        let nominal = Double(Self.nominalDelay(attempt: attempt).nanoseconds)
        if attempt < Self.attemptsToCap { attempt += 1 }
        guard jitter > 0 else { return .nanoseconds(Int64(nominal)) }
        let factor = Double.random(in: (1 - jitter)...(1 + jitter), using: &generator)
        return .nanoseconds(Int64((nominal * factor).rounded()))
    }

    /// Starts again at the first delay (after a successful connection).
    public mutating func reset() {
        attempt = 0
    }

    /// Past this many attempts the delay stays at the cap, so the counter stops growing.
    private static let attemptsToCap = 64
}
