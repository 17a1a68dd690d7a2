/// Bounds on what one client may send or hold (issue "Security and limits").
public struct GatewayLimits: Sendable, Hashable, Codable {
    /// JSON request bodies: 1 MiB.
    public static let defaultBodySize = 1 << 20
    /// File uploads: 64 MiB.
    public static let defaultFileSize = 64 << 20
    /// Requests per client per second.
    public static let defaultRequestsPerSecond = 1000

    public var bodySize: Int
    public var fileSize: Int
    /// The largest WebSocket message a client may send.
    public var webSocketMessageSize: Int
    /// Requests per token (or per address without tokens) per second, averaged over 10 s; 0 = off.
    /// 1,000 by default: one script at full speed fits (each app's SDL requests are limited below
    /// SDL Core's own limit anyway); `--rate-limit` changes it.
    public var requestsPerSecond: Int
    /// How long an HTTP connection may sit between requests, or stall while sending one, before the
    /// server closes it; a response in progress (an SSE stream) is never cut. 60 s.
    public var idleTimeout: Duration
    /// How long a new connection may take to send its first complete request head before it is
    /// answered `408 request-head-timeout` and closed (``RequestHeadDeadline``). 10 s.
    public var requestHeadTimeout: Duration
    /// Failed authentications per address per minute (the burst too) before it is answered 429
    /// without its credential being looked at; 0 = off. 20.
    public var authFailuresPerMinute: Int
    /// How often a quiet Server-Sent Events stream gets a comment line, so proxies keep it and a
    /// dead peer is noticed. 15 s.
    public var eventStreamKeepAlive: Duration
    /// The bytes the gateway's image store (`/v1/images`) may hold, all images together. 16 MiB.
    public var imageStoreSize: Int
    /// The slowest a request body may arrive, on average since its head, once
    /// ``bodyRateGrace`` has passed: 1,024 bytes a second; 0 = off. A slower body's connection is
    /// closed (``MinimumBodyRate``): the idle timeout alone lets a body trickled a byte at a time
    /// last for ever.
    public var minimumBodyRate: Int
    /// How long a body may arrive at any pace before ``minimumBodyRate`` applies. 10 s.
    public var bodyRateGrace: Duration
    /// The most PCM an app's audio pass-thru recording keeps for `last.wav`: 16 MiB (over 8
    /// minutes at 16 kHz 16-bit). The chunks beyond it still reach the event streams.
    public var audioRecordingSize: Int

    public init(
        bodySize: Int = GatewayLimits.defaultBodySize, fileSize: Int = GatewayLimits.defaultFileSize,
        webSocketMessageSize: Int = 1 << 20, requestsPerSecond: Int = GatewayLimits.defaultRequestsPerSecond,
        idleTimeout: Duration = .seconds(60),
        authFailuresPerMinute: Int = 20, eventStreamKeepAlive: Duration = .seconds(15), imageStoreSize: Int = 16 << 20,
        requestHeadTimeout: Duration = .seconds(10), minimumBodyRate: Int = 1024, bodyRateGrace: Duration = .seconds(10),
        audioRecordingSize: Int = 16 << 20
    ) {
        self.audioRecordingSize = audioRecordingSize
        self.minimumBodyRate = minimumBodyRate
        self.bodyRateGrace = bodyRateGrace
        self.bodySize = bodySize
        self.fileSize = fileSize
        self.webSocketMessageSize = webSocketMessageSize
        self.requestsPerSecond = requestsPerSecond
        self.idleTimeout = idleTimeout
        self.requestHeadTimeout = requestHeadTimeout
        self.authFailuresPerMinute = authFailuresPerMinute
        self.eventStreamKeepAlive = eventStreamKeepAlive
        self.imageStoreSize = imageStoreSize
    }
}
