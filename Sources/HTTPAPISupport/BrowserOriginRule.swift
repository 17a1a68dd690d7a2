import Hummingbird

/// What a web page may make a browser send to one of this project's HTTP APIs (SECURITY.md,
/// "Browsers"): the defence against cross-site requests and DNS rebinding.
///
/// - A request with an `Origin` (browsers send one with every cross-origin request and every
///   same-origin one but GET and HEAD) is refused unless the origin is allowed (`corsOrigins`,
///   `*` for any) or is the API's own: same host and port as the request's `Host`, the scheme's
///   default port standing for an absent one. A page elsewhere cannot POST a "simple" request
///   (a form's content type, no preflight) to drive the head unit, even without tokens.
/// - With ``loopbackHostsOnly`` (an API without tokens on loopback), the `Host` must be a
///   loopback name or address: a page whose own name was re-pointed at 127.0.0.1 (DNS
///   rebinding) is same-origin to the browser, but not to this rule.
public struct BrowserOriginRule: Sendable, Hashable {
    public var allowedOrigins: Set<String>
    public var loopbackHostsOnly: Bool

    public init(allowedOrigins: Set<String> = [], loopbackHostsOnly: Bool) {
        self.allowedOrigins = allowedOrigins
        self.loopbackHostsOnly = loopbackHostsOnly
    }

    /// Why a request is refused, for the problem's code and detail.
    public enum Refusal: Sendable, Hashable {
        /// `origin-not-allowed`: the page's origin is neither allowed nor the API's own.
        case origin(String)
        /// `host-not-allowed`: a loopback-only API was asked under another name.
        case host(String)

        public var code: String {
            switch self {
            case .origin: "origin-not-allowed"
            case .host: "host-not-allowed"
            }
        }

        public var detail: String {
            switch self {
            case .origin(let origin):
                "origin \(origin) is not allowed: only this API's own pages and the configured CORS origins may call it"
            case .host(let host):
                "Host \(host) is not a loopback name: without tokens, only localhost, 127.0.0.1 and [::1] are answered (DNS rebinding); give a token to serve other names"
            }
        }
    }

    public func allows(origin: String) -> Bool {
        allowedOrigins.contains("*") || allowedOrigins.contains(origin)
    }

    /// The refusal for a request with these `Origin` and `Host` (authority) values, or nil.
    public func refusal(origin: String?, authority: String?) -> Refusal? {
        if loopbackHostsOnly, let authority, !Self.isLoopback(host: Self.split(Substring(authority)).host) {
            return .host(authority)
        }
        guard let origin, !allows(origin: origin) else { return nil }
        if let authority, Self.sameOrigin(origin, authority: authority) { return nil }
        return .origin(origin)
    }

    /// Whether `origin` (`scheme://host[:port]`) names the server reached as `authority`
    /// (`host[:port]`): same host, without case, and same port, a missing one being the
    /// origin scheme's default (80, 443 for https).
    ///
    /// A page's origin is always `http` or `https`; WebSocket client libraries (not browsers)
    /// send `ws://host` or `wss://host` without the port, which is taken as the same host.
    public static func sameOrigin(_ origin: String, authority: String) -> Bool {
        let parts = origin.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].hasSuffix(":"), parts[1].isEmpty else { return false }
        let scheme = parts[0].dropLast().lowercased()
        let page = split(parts[2])
        let server = split(Substring(authority))
        guard page.host.lowercased() == server.host.lowercased() else { return false }
        if (scheme == "ws" || scheme == "wss") && page.port == nil { return true }
        let defaultPort: Substring = scheme == "https" || scheme == "wss" ? "443" : "80"
        return (page.port ?? defaultPort) == (server.port ?? defaultPort)
    }

    /// `localhost` (and its subdomains, RFC 6761), `127.0.0.0/8` and `::1`.
    public static func isLoopback(host: Substring) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host.hasSuffix(".localhost") || host == "[::1]" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// `host[:port]` apart; an IPv6 literal keeps its brackets.
    static func split(_ text: Substring) -> (host: Substring, port: Substring?) {
        guard let colon = text.lastIndex(of: ":"), !text.hasSuffix("]") else { return (text, nil) }
        if text.hasPrefix("["), let close = text.lastIndex(of: "]"), close > colon { return (text, nil) }
        return (text[..<colon], text[text.index(after: colon)...])
    }
}

/// ``BrowserOriginRule`` for the control APIs: a refused request is a 403 problem.
public struct BrowserOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    let rule: BrowserOriginRule

    public init(rule: BrowserOriginRule) {
        self.rule = rule
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        if let refusal = rule.refusal(origin: request.headers[.origin], authority: request.head.authority) {
            response = HTTPProblem.response(
                status: .forbidden, code: refusal.code, title: "Not allowed from this page", detail: refusal.detail)
        } else {
            response = try await next(request, context)
        }
        SecurityHeaders.apply(to: &response.headers)
        return response
    }
}
