import Foundation
import HTTPAPISupport
import HTTPTypes
import Hummingbird
import NIOCore

/// Decides who a request is and what it may do, for the HTTP router and the WebSocket router
/// alike (issue "Security and availability"). A caller presents one credential:
/// - `Authorization: Bearer <token>` (scripts, `fetch`);
/// - the WebSocket subprotocol `bearer.<token>`, offered beside `sdl-gateway.v1` (a browser's
///   `WebSocket` cannot send headers; the server selects `sdl-gateway.v1`, never the token);
/// - `?ticket=` from `POST /v1/tickets`, on the event streams only (a browser's `EventSource`).
///
/// What the request needs comes from ``AccessPolicy``. Failed authentications draw from a
/// per-address budget (``GatewayLimits/authFailuresPerMinute``); an address that spent it is
/// answered 429 before its credential is even looked at, so tokens cannot be guessed at speed.
/// Tokens are compared in constant time and never logged or echoed.
public final class Authenticator: Sendable {
    public let tokens: [String: TokenScope]
    public let tickets: TicketStore
    let failures: TokenBucketLimiter
    let failuresPerMinute: Int

    /// The WebSocket subprotocol of the event streams (``WebSocketSubprotocol``).
    public static let subprotocol = WebSocketSubprotocol.name
    /// The prefix of a token offered as a WebSocket subprotocol.
    public static let bearerSubprotocolPrefix = "bearer."

    public init(
        tokens: [String: TokenScope], tickets: TicketStore = TicketStore(), failuresPerMinute: Int = GatewayLimits().authFailuresPerMinute
    ) {
        self.tokens = tokens
        self.tickets = tickets
        self.failuresPerMinute = failuresPerMinute
        self.failures = TokenBucketLimiter(rate: Double(failuresPerMinute) / 60, burst: Double(failuresPerMinute))
    }

    /// Who is calling: the scope granted (nil for an open operation when tokens are set) and
    /// the key of its rate limit (its token, else its address).
    public struct Grant: Sendable, Hashable {
        public var scope: TokenScope?
        public var clientKey: String
    }

    /// The grant for `request` from `address`, or the 401, 403 or 429 that refuses it.
    public func authenticate(_ request: Request, address: String, now: NIODeadline = .now()) throws(GatewayError) -> Grant {
        let access = AccessPolicy.required(method: request.method, path: request.uri.path)
        guard !tokens.isEmpty else { return Grant(scope: .control, clientKey: address) }
        guard access != .open else { return Grant(scope: nil, clientKey: address) }
        if let wait = failures.wait(address, now: now) {
            throw GatewayError(
                .rateLimited,
                "too many failed authentications from this address (limits.authFailuresPerMinute, \(failuresPerMinute) a minute); retry in \(wait) s",
                retryAfter: wait)
        }
        let grant: Grant
        switch Self.credential(of: request) {
        case .none:
            try failed(
                address, now: now,
                "send Authorization: Bearer <token>, the WebSocket subprotocol bearer.<token>, or ?ticket= from POST /v1/tickets")
        case .otherScheme(let scheme):
            try failed(address, now: now, "Authorization: \(scheme) is not accepted: send Authorization: Bearer <token>")
        case .token(let presented):
            guard let scope = Self.scope(of: Array(presented.utf8), in: tokens) else {
                try failed(address, now: now, "the bearer token is not valid")
            }
            grant = Grant(scope: scope, clientKey: "token:\(Self.fingerprint(Array(presented.utf8)))")
        case .ticket(let value):
            guard Self.takesTickets(request), let ticket = tickets.redeem(value, now: now) else {
                try failed(
                    address, now: now,
                    "the ticket is not valid: tickets are for the event streams, work once and expire \(tickets.lifetime.nanoseconds / 1_000_000_000) s after POST /v1/tickets"
                )
            }
            grant = Grant(scope: ticket.scope, clientKey: ticket.clientKey)
        }
        try AccessPolicy.authorize(grant.scope, for: access, "\(request.method) \(request.uri.path)")
        return grant
    }

    private func failed(_ address: String, now: NIODeadline, _ detail: String) throws(GatewayError) -> Never {
        if let wait = failures.acquire(address, now: now) {
            throw GatewayError(
                .rateLimited,
                "too many failed authentications from this address (limits.authFailuresPerMinute, \(failuresPerMinute) a minute); retry in \(wait) s",
                retryAfter: wait)
        }
        throw GatewayError(.unauthorized, detail)
    }

    enum Credential: Equatable {
        /// An `Authorization` header of another scheme (`Basic …`): its scheme, never its credentials.
        case otherScheme(Substring)
        case token(Substring)
        case ticket(Substring)
    }

    /// The one credential a request presents: the Authorization header, else a `bearer.`
    /// WebSocket subprotocol, else a `ticket` query parameter.
    static func credential(of request: Request) -> Credential? {
        if let header = request.headers[.authorization] {
            guard header.count > 7, header.prefix(7).lowercased() == "bearer " else {
                let scheme = header.prefix { $0 != " " }
                // Only a scheme's name is echoed, and only a short one of letters.
                guard scheme.lowercased() != "bearer", (1...20).contains(scheme.count), scheme.allSatisfy({ $0.isASCII && $0.isLetter })
                else { return .token("") }
                return .otherScheme(Substring(scheme))
            }
            return .token(Substring(header.dropFirst(7).drop(while: { $0 == " " })))
        }
        for value in request.headers[values: .secWebSocketProtocol] {
            for offered in value.split(separator: ",") {
                let name = offered.trimmingCharacters(in: .whitespaces)
                if name.hasPrefix(bearerSubprotocolPrefix) { return .token(Substring(name.dropFirst(bearerSubprotocolPrefix.count))) }
            }
        }
        if let ticket = request.uri.queryParameters.get("ticket") { return .ticket(Substring(ticket)) }
        return nil
    }

    /// Tickets open the event streams (`GET /v1/events`, `GET /v1/apps/{id}/events`) and nothing else.
    static func takesTickets(_ request: Request) -> Bool {
        let path = request.uri.path
        guard request.method == .get else { return false }
        if path == "/v1/events" { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 5 && parts[1] == "v1" && parts[2] == "apps" && parts[4] == "events"
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
