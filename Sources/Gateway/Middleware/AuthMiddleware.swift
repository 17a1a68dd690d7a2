import Hummingbird

/// Bearer tokens (issue "Security and limits"): each token has a ``TokenScope``; `read` allows
/// GET and HEAD (which includes the event streams), `control` everything. Without tokens the API
/// is open (the server refuses to listen beyond loopback then, unless told `--insecure`).
/// `GET /v1/health` needs no token. Tokens are compared in constant time and never logged.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let tokens: [String: TokenScope]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        guard !tokens.isEmpty else {
            context.scope = .control
            return try await next(request, context)
        }
        if request.uri.path == "/v1/health" { return try await next(request, context) }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw GatewayError(.unauthorized, "send Authorization: Bearer <token>")
        }
        let presented = Array(header.dropFirst(7).trimmingPrefix(" ").utf8)
        guard let scope = Self.scope(of: presented, in: tokens) else {
            throw GatewayError(.unauthorized, "the bearer token is not valid")
        }
        let reads = request.method == .get || request.method == .head
        guard reads || scope == .control else {
            throw GatewayError(.forbidden, "a read token allows GET and event streams only; \(request.method) needs a control token")
        }
        context.scope = scope
        context.clientKey = "token:\(Self.fingerprint(presented))"
        return try await next(request, context)
    }

    /// The scope of the presented token, comparing it with every token in constant time.
    static func scope(of presented: [UInt8], in tokens: [String: TokenScope]) -> TokenScope? {
        var found: TokenScope?
        for (token, scope) in tokens {
            let expected = Array(token.utf8)
            var difference = UInt8(expected.count == presented.count ? 0 : 1)
            for index in 0..<expected.count {
                difference |= expected[index] ^ (index < presented.count ? presented[index] : 0)
            }
            if difference == 0 { found = scope }
        }
        return found
    }

    /// A short non-reversible name for a token (FNV-1a), for the rate limiter's keys.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
