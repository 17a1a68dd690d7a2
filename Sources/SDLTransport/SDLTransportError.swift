/// Why a transport address could not be parsed or a transport could not be opened or kept.
/// ``code`` is stable and callers switch on it; ``detail`` is for people and logs.
public struct SDLTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The address is not `tcp://host:port`, `ws://host:port[/path]`, `wss://host:port[/path]`
        /// or `host:port`: no host, a bad port, user info, a path on tcp, stray characters.
        public static let invalidAddress = Code(rawValue: "invalidAddress")
        /// The address names a scheme other than `tcp`, `ws` and `wss`.
        public static let unsupportedScheme = Code(rawValue: "unsupportedScheme")
        /// The server answered the HTTP/1.1 upgrade request without switching to WebSocket (a
        /// wrong port, a plain HTTP server, or a proxy in the way).
        public static let webSocketUpgradeRefused = Code(rawValue: "webSocketUpgradeRefused")
        /// The peer broke the SDL-over-WebSocket convention: a text message where SDL frames
        /// travel only in binary messages (docs/protocol.md §e "WebSocket server for apps").
        public static let webSocketProtocolViolation = Code(rawValue: "webSocketProtocolViolation")
        /// A WebSocket message was larger than the transport's bound
        /// (``SDLWebSocket/defaultMaximumMessageSize``).
        public static let messageTooLarge = Code(rawValue: "messageTooLarge")
        /// The TLS configuration for `wss` could not be turned into a TLS context.
        public static let tlsConfigurationFailed = Code(rawValue: "tlsConfigurationFailed")
    }

    public var code: Code
    public var detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
