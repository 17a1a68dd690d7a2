import Hummingbird
import NIOCore
import Synchronization

/// A request rate per client (its token, else its address): a token bucket of
/// `requestsPerSecond`, bursting to ten seconds' worth, answering 429 with `Retry-After` when
/// empty (issue "Security and limits"). At most ``maximumClients`` buckets are kept; the oldest
/// are forgotten.
final class RateLimitMiddleware: RouterMiddleware, Sendable {
    typealias Context = GatewayRequestContext

    static let maximumClients = 10_000

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: NIODeadline
    }

    let requestsPerSecond: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    init(requestsPerSecond: Int) {
        self.requestsPerSecond = requestsPerSecond
    }

    /// Takes one request from `key`'s bucket; the seconds to wait when it is empty.
    func acquire(_ key: String, now: NIODeadline) -> Int? {
        let rate = Double(requestsPerSecond)
        let capacity = rate * 10
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            let elapsed = Double((now - bucket.updated).nanoseconds) / 1e9
            bucket.tokens = min(capacity, bucket.tokens + max(0, elapsed) * rate)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
            }
            bucket.tokens -= 1
            if buckets[key] == nil, buckets.count >= Self.maximumClients,
                let oldest = buckets.min(by: { $0.value.updated < $1.value.updated })?.key
            {
                buckets[oldest] = nil
            }
            buckets[key] = bucket
            return nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard requestsPerSecond > 0, request.uri.path != "/v1/health" else { return try await next(request, context) }
        if let wait = acquire(context.clientKey, now: .now()) {
            throw GatewayError(.rateLimited, "more than \(requestsPerSecond) requests per second; retry in \(wait) s", retryAfter: wait)
        }
        return try await next(request, context)
    }
}
