import NIOCore
import NIOSSL
import SDLProtocol
import SDLSpec
import SDLTransport

extension SDLConnection {
    /// Where the head unit is and how the session behaves; see ``SDLConnection``.
    public struct Configuration: Sendable {
        /// Where the head unit listens: `tcp://host:port`, `ws://host:port[/path]` or
        /// `wss://host:port[/path]` (``SDLTransportAddress``).
        public var address: SDLTransportAddress
        /// The TLS client configuration for `wss`: trust roots for Core's CA, and the client
        /// certificate and key Core's TLS WebSocket server requires. Unused for tcp and ws.
        public var tlsConfiguration: TLSConfiguration
        public var app: SDLAppConfiguration
        public var catalog: SDLCatalog
        public var session: SDLSessionStateMachine.Configuration
        public var deadlines: SDLRequestDeadlines
        public var rateLimits: SDLRequestRateLimiter.Configuration
        /// Validate request parameters against the spec before sending (per request too).
        public var validatesRequests: Bool
        /// Refuse requests the permission table does not allow (per request too).
        public var checksPermissions: Bool
        /// How long connecting and negotiating may take.
        public var connectTimeout: TimeAmount
        /// Where every byte read from and written to the transport is reported, with the
        /// connection's opening and end (``SDLCaptureTap``; `serve --record`). `nil`, the default,
        /// records nothing and costs nothing.
        public var capture: SDLCaptureTap?
        /// What happens when the reader of the events falls ``SDLConnection/eventBufferLimit``
        /// behind: ``SDLEventOverflow/drop`` (the default) counts the events as lost and keeps
        /// reading; ``SDLEventOverflow/pauseReading`` stops reading the head unit until half the
        /// buffer is free, so TCP holds the head unit back and nothing is lost (for a reader that
        /// always reads, such as the gateway's event pump: one that stops would stall the session).
        public var eventOverflow: SDLEventOverflow = .drop
        /// The event loops the connection's socket runs on; nil, the default, is NIO's shared
        /// singleton.
        /// A program that also serves many clients of its own should give its head-unit links
        /// loops of their own: NIO runs an event loop's queued work until none is left before it
        /// reads again, so a flood of writes to those clients on a shared loop keeps it from
        /// reading the head unit — for seconds, long enough to be declared lost.
        public var eventLoopGroup: (any EventLoopGroup)?

        /// The head unit's host, from ``address``.
        public var host: String {
            get { address.host }
            set { address.host = newValue }
        }

        /// The head unit's port, from ``address``.
        public var port: Int {
            get { address.port }
            set { address.port = newValue }
        }

        /// A head unit on SDL Core's TCP transport at `host:port`.
        public init(
            host: String = "127.0.0.1",
            port: Int = 12345,
            app: SDLAppConfiguration,
            catalog: SDLCatalog = .builtIn,
            session: SDLSessionStateMachine.Configuration = .default,
            deadlines: SDLRequestDeadlines = SDLRequestDeadlines(),
            rateLimits: SDLRequestRateLimiter.Configuration = .default,
            validatesRequests: Bool = true,
            checksPermissions: Bool = true,
            connectTimeout: TimeAmount = .seconds(10)
        ) {
            self.init(
                address: .tcp(host: host, port: port),
                app: app,
                catalog: catalog,
                session: session,
                deadlines: deadlines,
                rateLimits: rateLimits,
                validatesRequests: validatesRequests,
                checksPermissions: checksPermissions,
                connectTimeout: connectTimeout
            )
        }

        /// A head unit at `address`, over any transport.
        public init(
            address: SDLTransportAddress,
            tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            app: SDLAppConfiguration,
            catalog: SDLCatalog = .builtIn,
            session: SDLSessionStateMachine.Configuration = .default,
            deadlines: SDLRequestDeadlines = SDLRequestDeadlines(),
            rateLimits: SDLRequestRateLimiter.Configuration = .default,
            validatesRequests: Bool = true,
            checksPermissions: Bool = true,
            connectTimeout: TimeAmount = .seconds(10)
        ) {
            self.address = address
            self.tlsConfiguration = tlsConfiguration
            self.app = app
            self.catalog = catalog
            self.session = session
            self.deadlines = deadlines
            self.rateLimits = rateLimits
            self.validatesRequests = validatesRequests
            self.checksPermissions = checksPermissions
            self.connectTimeout = connectTimeout
        }
    }
}

/// What a session does with events its reader has no room for (``SDLConnection/Configuration/eventOverflow``).
public enum SDLEventOverflow: Sendable, Hashable {
    /// Count them as lost (`lost(count)` in their place) and keep reading the head unit.
    case drop
    /// Stop reading the head unit until the reader has caught up: nothing is lost.
    case pauseReading
}
