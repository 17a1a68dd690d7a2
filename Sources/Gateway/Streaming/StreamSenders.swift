import NIOCore
import SDLClient
import Synchronization

/// One sender per app and service (README "Projection"; docs/protocol.md §o: a service's data
/// frames are one stream, in order). The pieces of two senders would interleave into a corrupt
/// stream, so a second WebSocket or streamed POST on the same app's service is refused with 409
/// `streaming-busy` naming who holds it.
///
/// A claim belongs to the HTTP connection that made it. It ends when its sender ends (a scoped
/// ``withClaim(_:app:_:on:_:)``, whatever way the body leaves) or when that connection closes,
/// whichever comes first, so that neither an error nor a client that vanishes leaves it held.
/// The WebSocket upgrade claims before it answers 101 (``claim(_:app:_:on:)``, released when the
/// connection closes), and its handler then runs inside the same claim.
final class StreamSenders: Sendable {
    /// How a sender sends.
    enum Kind: String, Sendable {
        case webSocket
        case streamedBody

        /// For people, in a problem's detail.
        var description: String {
            switch self {
            case .webSocket: "a WebSocket"
            case .streamedBody: "a streamed POST"
            }
        }
    }

    private struct Key: Hashable {
        let app: String
        let service: SDLStreamingService
    }

    private struct Claim {
        let kind: Kind
        /// The connection that holds it.
        let owner: ObjectIdentifier
    }

    private let claims = Mutex<[Key: Claim]>([:])

    /// Who sends on the app's service now; nil when nobody does.
    func sender(app: String, _ service: SDLStreamingService) -> Kind? {
        claims.withLock { $0[Key(app: app, service: service)]?.kind }
    }

    /// Claims the app's service for a sender on `channel`'s connection until that connection
    /// closes (or ``release(app:_:on:)``). Throws 409 `streaming-busy` when another connection holds it.
    func claim(_ kind: Kind, app: String, _ service: SDLStreamingService, on channel: any Channel) throws(GatewayError) {
        try take(kind, app: app, service, on: channel)
        channel.closeFuture.whenComplete { _ in self.release(app: app, service, on: channel) }
    }

    /// Takes the claim for `channel`'s connection; one it holds already is kept.
    private func take(_ kind: Kind, app: String, _ service: SDLStreamingService, on channel: any Channel) throws(GatewayError) {
        let key = Key(app: app, service: service)
        let owner = ObjectIdentifier(channel)
        let holder: Kind? = claims.withLock { claims in
            if let claim = claims[key], claim.owner != owner { return claim.kind }
            claims[key] = Claim(kind: kind, owner: owner)
            return nil
        }
        if let holder {
            throw GatewayError(
                .streamingBusy,
                "app \(app)'s \(service.noun) stream has a sender already: \(holder.description); one sender per service, so that their pieces do not interleave (end that one first)"
            )
        }
    }

    /// Ends `channel`'s claim on the app's service; a claim another connection made since is kept.
    func release(app: String, _ service: SDLStreamingService, on channel: any Channel) {
        let owner = ObjectIdentifier(channel)
        claims.withLock { claims in
            let key = Key(app: app, service: service)
            if claims[key]?.owner == owner { claims[key] = nil }
        }
    }

    /// Runs `body` holding the claim, released when `body` returns or throws.
    func withClaim<Result>(
        _ kind: Kind, app: String, _ service: SDLStreamingService, on channel: any Channel, _ body: () async throws -> Result
    ) async throws -> Result {
        try take(kind, app: app, service, on: channel)
        defer { release(app: app, service, on: channel) }
        return try await body()
    }
}
