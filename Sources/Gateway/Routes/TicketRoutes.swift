import Hummingbird
import SDLProtocol

/// `POST /v1/tickets`: a single-use ticket for the event streams, for clients that cannot send
/// an `Authorization` header (a browser's `EventSource`). Any valid token may ask; the ticket
/// carries its scope and rate-limit key, and works once, within 30 s, as `?ticket=` on
/// `GET /v1/events` or `GET /v1/apps/{id}/events`.
struct TicketRoutes: Sendable {
    let tickets: TicketStore

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/tickets") { _, context -> Response in
            let ticket = try tickets.issue(scope: context.scope ?? .control, clientKey: context.clientKey)
            let seconds = tickets.lifetime.nanoseconds / 1_000_000_000
            var headers = HTTPFields()
            headers[.cacheControl] = "no-store"
            return HTTPBody.response(["ticket": .string(ticket), "expiresIn": .int(seconds)], status: .created, headers: headers)
        }
    }
}
