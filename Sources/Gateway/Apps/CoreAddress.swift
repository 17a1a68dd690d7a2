/// Where a head unit listens for apps: `tcp://host:port` (SDL Core's TCP transport, default port
/// 12345) or a bare `host:port` (SDL-PROTOCOL.md §e "Ports and transports").
public struct CoreAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public init(_ text: String) throws(GatewayError) {
        var rest = Substring(text)
        if rest.hasPrefix("tcp://") { rest = rest.dropFirst(6) } else if rest.contains("://") {
            throw GatewayError(.invalidBody, "core: unsupported scheme in \(text); expected tcp://host:port")
        }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        var host = rest
        var port = 12345
        if let colon = rest.lastIndex(of: ":") {
            guard let value = Int(rest[rest.index(after: colon)...]), (1...65535).contains(value) else {
                throw GatewayError(.invalidBody, "core: bad port in \(text)")
            }
            host = rest[..<colon]
            port = value
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains(" ") else {
            throw GatewayError(.invalidBody, "core: no host in \(text)")
        }
        self.init(host: String(host), port: port)
    }

    public var description: String { "tcp://\(host):\(port)" }
}
