import NIOCore
import Synchronization

/// Token buckets by client key: `rate` tokens a second, holding at most `burst`. Used for the
/// request rate per client and for failed authentications per address. At most
/// ``maximumClients`` buckets are kept; the least recently used is forgotten first.
final class TokenBucketLimiter: Sendable {
    static let maximumClients = 10_000

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: NIODeadline
    }

    /// Tokens per second; 0 turns the limiter off.
    let rate: Double
    let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(1, burst)
    }

    var isEnabled: Bool { rate > 0 }

    /// Takes one token from `key`'s bucket: nil when there was one, else the seconds until there is.
    func acquire(_ key: String, now: NIODeadline = .now()) -> Int? {
        take(key, now: now, count: 1)
    }

    /// The seconds until `key` has a token again, without taking one; nil when it has one now.
    func wait(_ key: String, now: NIODeadline = .now()) -> Int? {
        take(key, now: now, count: 0)
    }

    private func take(_ key: String, now: NIODeadline, count: Double) -> Int? {
        guard isEnabled else { return nil }
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = Double((now - bucket.updated).nanoseconds) / 1e9
            bucket.tokens = min(burst, bucket.tokens + max(0, elapsed) * rate)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                if buckets[key] != nil { buckets[key] = bucket }
                return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
            }
            bucket.tokens -= count
            if count > 0 {
                if buckets[key] == nil, buckets.count >= Self.maximumClients,
                    let oldest = buckets.min(by: { $0.value.updated < $1.value.updated })?.key
                {
                    buckets[oldest] = nil
                }
                buckets[key] = bucket
            }
            return nil
        }
    }
}
