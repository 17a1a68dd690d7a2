import NIOCore
import Synchronization

/// Short-lived, single-use tickets for clients that cannot send an `Authorization` header: a
/// browser's `EventSource`, or a `WebSocket` whose page would rather not put its token in a
/// subprotocol (issue "Security and availability"). `POST /v1/tickets` issues one with the scope
/// of the token that asked; `GET …/events?ticket=…` redeems it once, within ``lifetime``.
/// At most ``capacity`` tickets are outstanding; expired ones are forgotten as new ones are issued.
public final class TicketStore: Sendable {
    public struct Ticket: Sendable, Hashable {
        public let scope: TokenScope
        /// The rate-limit key of the token that asked for it.
        public let clientKey: String
        public let expires: NIODeadline
    }

    public static let defaultLifetime: TimeAmount = .seconds(30)
    public static let defaultCapacity = 10_000

    public let lifetime: TimeAmount
    public let capacity: Int
    private let tickets = Mutex<[String: Ticket]>([:])

    public init(lifetime: TimeAmount = TicketStore.defaultLifetime, capacity: Int = TicketStore.defaultCapacity) {
        precondition(capacity > 0 && lifetime > .zero, "a ticket store holds tickets for a while")
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Tickets issued and neither redeemed nor expired (expired ones may linger until the next issue).
    public var outstanding: Int { tickets.withLock { $0.count } }

    /// A new ticket of `scope` for the client `clientKey`: 256 random bits as 64 hex digits.
    /// Throws `rate-limited` when ``capacity`` unexpired tickets are outstanding.
    public func issue(scope: TokenScope, clientKey: String, now: NIODeadline = .now()) throws(GatewayError) -> String {
        var generator = SystemRandomNumberGenerator()
        let value = (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
        let ticket = Ticket(scope: scope, clientKey: clientKey, expires: now + lifetime)
        try tickets.withLock { tickets throws(GatewayError) in
            if tickets.count >= capacity { tickets = tickets.filter { $0.value.expires > now } }
            guard tickets.count < capacity else {
                let seconds = Int(lifetime.nanoseconds / 1_000_000_000)
                throw GatewayError(.rateLimited, "\(capacity) tickets are outstanding; retry in \(seconds) s", retryAfter: max(1, seconds))
            }
            tickets[value] = ticket
        }
        return value
    }

    /// The ticket's grant, once: a redeemed, expired or unknown ticket gives nil.
    public func redeem(_ value: some StringProtocol, now: NIODeadline = .now()) -> Ticket? {
        guard value.utf8.count == 64 else { return nil }
        let ticket = tickets.withLock { $0.removeValue(forKey: String(value)) }
        guard let ticket, ticket.expires > now else { return nil }
        return ticket
    }
}
