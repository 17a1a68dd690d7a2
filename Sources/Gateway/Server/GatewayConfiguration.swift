import SDLClient
import SDLTransport

/// What `sdl-gateway serve` is told by its options, environment and config file: everything
/// ``buildApplication(_:companion:prometheus:logger:onServerRunning:)`` needs.
public struct GatewayConfiguration: Sendable {
    /// An app to register when the gateway starts (config file `apps`).
    public struct StartupApp: Sendable {
        public var id: String?
        public var core: SDLTransportAddress?
        public var app: SDLAppConfiguration

        public init(id: String? = nil, core: SDLTransportAddress? = nil, app: SDLAppConfiguration) {
            self.id = id
            self.core = core
            self.app = app
        }
    }

    /// Where the API listens (port 0 picks one).
    public var host: String
    public var port: Int
    /// The head units, the RPC catalog and the session timings of the apps.
    public var sessions: GatewayApps.Options
    /// Bearer tokens and their scopes; empty leaves the API open.
    public var tokens: [String: TokenScope]
    /// Origins allowed by CORS and for WebSockets (`*` for any).
    public var corsOrigins: Set<String>
    public var limits: GatewayLimits
    public var events: EventHub.Limits
    /// A directory served at `/` instead of the built-in page.
    public var publicDirectory: String?
    /// Apps to register at start.
    public var startupApps: [StartupApp]

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        sessions: GatewayApps.Options = GatewayApps.Options(),
        tokens: [String: TokenScope] = [:],
        corsOrigins: Set<String> = [],
        limits: GatewayLimits = GatewayLimits(),
        events: EventHub.Limits = EventHub.Limits(),
        publicDirectory: String? = nil,
        startupApps: [StartupApp] = []
    ) {
        self.host = host
        self.port = port
        self.sessions = sessions
        self.tokens = tokens
        self.corsOrigins = corsOrigins
        self.limits = limits
        self.events = events
        self.publicDirectory = publicDirectory
        self.startupApps = startupApps
    }
}
