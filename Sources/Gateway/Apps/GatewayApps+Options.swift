import NIOCore
import NIOPosix
import SDLClient
import SDLSpec
import SDLTransport

extension GatewayApps {
    /// What the gateway's apps are allowed and how their sessions run (`serve`'s options and
    /// config file): the head units they may use, the RPC catalog, the waits and limits.
    public struct Options: Sendable {
        /// The head unit of apps created without `core`.
        public var defaultCore: SDLTransportAddress
        /// Other head units an app may name as its `core` (the default one always may): the
        /// gateway never connects where its operator did not say, whatever a client asks.
        public var allowedCores: [SDLTransportAddress]
        public var catalog: SDLCatalog
        /// How long `POST /v1/apps` waits for the registration (default 10 s).
        public var registrationWait: Duration
        public var backoff: SDLBackoff
        /// How long shutdown waits for the apps to unregister.
        public var shutdownGracePeriod: Duration
        /// Where each app session's SDL bytes are recorded (`serve --record DIR`); `nil`, the
        /// default, records nothing.
        public var recording: GatewayRecording?
        /// The request limits each app's session keeps to: 90 % of SDL Core's (its
        /// `AppTimeScaleMaxRequests`, `serve --core-request-limit`), so that Core never
        /// unregisters an app for flooding it.
        public var rateLimits: SDLRequestRateLimiter.Configuration
        /// The interval of the gateway's own Heartbeats on every session of version 3–5
        /// (docs/protocol.md §d: Core answers them on v3–v5 and, once an app sends one, watches it
        /// for silence too). A head unit that answers nothing for three intervals, its socket open,
        /// is declared lost and the session reconnects. nil: Heartbeats on v3 only, as the app
        /// libraries send them; a hung head unit is then found only by request deadlines.
        public var heartbeat: Duration?
        /// How many apps the gateway holds at once (default 250, about SDL Core's limit of
        /// sessions): each costs a session, its buffers and its event ring, so a caller with a
        /// control token cannot grow the gateway without bound. One more is refused
        /// 503 `too-many-apps`.
        public var maximumApps: Int
        public static let defaultMaximumApps = 250
        /// The event loops of the head-unit links (every app's SDL connection) and of the
        /// readiness probe (`GET /v1/ready`). Whoever creates the group shuts it down after the
        /// application ended (``HeadUnitEventLoops/with(_:)``, as `sdl-gateway serve` does).
        /// The default, NIO's singleton group, is never shut down and is shared with the HTTP
        /// and WebSocket clients, which a burst can keep from reading the head units.
        public var eventLoopGroup: any EventLoopGroup
        /// 5 s: Core's `HeartBeatTimeout` default (5000 ms), below its shipped 7000 ms.
        public static let defaultHeartbeat: Duration = .seconds(5)

        public init(
            defaultCore: SDLTransportAddress = SDLTransportAddress.tcp(host: "127.0.0.1", port: 12345),
            catalog: SDLCatalog = .builtIn,
            registrationWait: Duration = .seconds(10),
            backoff: SDLBackoff = SDLBackoff(),
            shutdownGracePeriod: Duration = .seconds(4),
            allowedCores: [SDLTransportAddress] = [],
            recording: GatewayRecording? = nil,
            rateLimits: SDLRequestRateLimiter.Configuration = .default,
            heartbeat: Duration? = Options.defaultHeartbeat,
            maximumApps: Int = Options.defaultMaximumApps,
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
        ) {
            self.eventLoopGroup = eventLoopGroup
            self.heartbeat = heartbeat
            self.maximumApps = maximumApps
            self.recording = recording
            self.rateLimits = rateLimits
            self.defaultCore = defaultCore
            self.allowedCores = allowedCores
            self.catalog = catalog
            self.registrationWait = registrationWait
            self.backoff = backoff
            self.shutdownGracePeriod = shutdownGracePeriod
        }

        /// Whether an app may use the head unit at `core` (scheme, host and port; any path).
        public func allows(_ core: SDLTransportAddress) -> Bool {
            ([defaultCore] + allowedCores).contains {
                $0.scheme == core.scheme && $0.host.lowercased() == core.host.lowercased() && $0.port == core.port
            }
        }
    }
}
