import Hummingbird

/// Runs ``Authenticator`` before every route of the HTTP router and every upgrade of the
/// WebSocket router, and puts the grant in the context: the scope the handlers (the WebSocket
/// message handler among them) check, and the key the rate limiter counts.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let authenticator: Authenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let grant = try authenticator.authenticate(request, address: context.remoteAddress?.ipAddress ?? "local")
        context.scope = grant.scope
        context.clientKey = grant.clientKey
        return try await next(request, context)
    }
}
