/// Where a head unit listens for apps, as a URL (docs/protocol.md §e "Ports and transports"):
///
/// | text | transport | default port |
/// |---|---|---|
/// | `tcp://host:port`, `host:port`, `host` | SDL Core's TCP transport: frames streamed with no extra framing | 12345 (`TCPAdapterPort`) |
/// | `ws://host:port[/path]` | SDL Core's WebSocket server for apps ("WebEngine"): one SDL frame per binary message | 2020 (`WebSocketServerPort`) |
/// | `wss://host:port[/path]` | the same over TLS; Core then requires a client certificate | 2020 |
///
/// Core accepts any request path on its WebSocket server, so the path (with any query, e.g. the
/// `?sdl-host=…` of SDL-0240) is sent as given and defaults to `/`. IPv6 hosts go in brackets:
/// `ws://[::1]:2020`. The ``description`` prints the URL back in its full form.
public struct SDLTransportAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable, Hashable, CaseIterable {
        case tcp
        case ws
        case wss

        /// SDL Core's port for the scheme: `TCPAdapterPort` 12345, `WebSocketServerPort` 2020.
        public var defaultPort: Int {
            switch self {
            case .tcp: 12345
            case .ws, .wss: 2020
            }
        }

        /// Whether the scheme carries SDL frames in WebSocket messages.
        public var isWebSocket: Bool { self != .tcp }
    }

    public var scheme: Scheme
    /// The host as written, without IPv6 brackets.
    public var host: String
    public var port: Int
    /// The HTTP request target of the WebSocket upgrade (`/` when none was given); always `/`
    /// for tcp, which has no path.
    public var path: String

    public init(scheme: Scheme = .tcp, host: String, port: Int? = nil, path: String = "/") {
        self.scheme = scheme
        self.host = host
        self.port = port ?? scheme.defaultPort
        self.path = path.isEmpty ? "/" : path
    }

    /// `tcp://host:port`.
    public static func tcp(host: String, port: Int = Scheme.tcp.defaultPort) -> SDLTransportAddress {
        SDLTransportAddress(scheme: .tcp, host: host, port: port)
    }

    /// Parses `tcp://host:port`, `ws://host:port[/path]`, `wss://host:port[/path]` or a bare
    /// `host[:port]` (tcp). The scheme is case-insensitive; the port defaults by scheme.
    public init(_ text: String) throws(SDLTransportError) {
        var rest = Substring(text)
        var scheme = Scheme.tcp
        if let separator = rest.firstRange(of: "://") {
            let name = rest[..<separator.lowerBound].lowercased()
            guard let known = Scheme(rawValue: name) else {
                throw SDLTransportError(
                    .unsupportedScheme,
                    "\(text): unsupported scheme \"\(name)\"; expected tcp://, ws:// or wss://"
                )
            }
            scheme = known
            rest = rest[separator.upperBound...]
        }
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }
        let authority = pathStart.map { rest[..<$0] } ?? rest
        var path = pathStart.map { String(rest[$0...]) } ?? "/"
        if path.hasPrefix("?") { path = "/" + path }
        if path.contains("#") || path.contains(where: { $0.isWhitespace }) {
            throw SDLTransportError(.invalidAddress, "\(text): the path may hold neither a fragment nor spaces")
        }
        if scheme == .tcp, path != "/" {
            throw SDLTransportError(.invalidAddress, "\(text): tcp addresses have no path")
        }
        guard !authority.contains("@") else {
            throw SDLTransportError(.invalidAddress, "\(text): user info is not supported")
        }
        let (host, portText) = try Self.split(authority: authority, text: text)
        var port = scheme.defaultPort
        if let portText {
            guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(portText), (1...65_535).contains(value) else {
                throw SDLTransportError(.invalidAddress, "\(text): bad port \"\(portText)\"; expected 1…65535")
            }
            port = value
        }
        self.init(scheme: scheme, host: host, port: port, path: path)
    }

    /// Splits `host[:port]` or `[v6][:port]`; the port is nil when absent.
    private static func split(authority: Substring, text: String) throws(SDLTransportError) -> (String, Substring?) {
        var host: Substring
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw SDLTransportError(.invalidAddress, "\(text): unclosed [ in the IPv6 host")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw SDLTransportError(.invalidAddress, "\(text): expected :port after the IPv6 host")
                }
                port = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw SDLTransportError(.invalidAddress, "\(text): bad IPv6 host \"\(host)\"")
            }
        } else {
            host = authority
            if let colon = authority.lastIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty else {
                throw SDLTransportError(.invalidAddress, "\(text): no host")
            }
            let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }
            guard allowed else {
                throw SDLTransportError(.invalidAddress, "\(text): bad host \"\(host)\" (IPv6 hosts go in brackets)")
            }
        }
        return (String(host), port)
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var hostAndPort: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The URL in full: `tcp://host:port`, `ws://host:port/path`.
    public var description: String {
        scheme == .tcp ? "tcp://\(hostAndPort)" : "\(scheme.rawValue)://\(hostAndPort)\(path)"
    }
}
