import Hummingbird

/// A request rate per client (its token, else its address): `requestsPerSecond`, bursting to ten
/// seconds' worth, answering 429 with `Retry-After` when spent (issue "Security and limits").
/// One instance serves the HTTP router and the WebSocket router, so upgrades count too, and the
/// messages on an event WebSocket.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let requestsPerSecond: Int
    let limiter: TokenBucketLimiter

    init(requestsPerSecond: Int) {
        self.requestsPerSecond = requestsPerSecond
        self.limiter = TokenBucketLimiter(rate: Double(requestsPerSecond), burst: Double(requestsPerSecond) * 10)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path != "/v1/health" else { return try await next(request, context) }
        if let refusal = refusal(clientKey: context.clientKey) { throw refusal }
        return try await next(request, context)
    }

    /// Spends one request of the client's budget: nil, or the 429 to answer when it is spent.
    /// Messages on an event WebSocket spend from the same budget (``EventRoutes``).
    func refusal(clientKey: String) -> GatewayError? {
        guard limiter.isEnabled, let wait = limiter.acquire(clientKey) else { return nil }
        return GatewayError(
            .rateLimited,
            "more than \(requestsPerSecond) requests per second from this client (the gateway's limit, limits.requestsPerSecond); "
                + "retry in \(wait) s, or raise it with --rate-limit N (SDL_GATEWAY_RATE_LIMIT; 0 turns it off)",
            retryAfter: wait
        )
    }
}
