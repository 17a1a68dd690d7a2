import HTTPTypes

/// What a bearer token allows (issue "Security and availability"): `read` covers GET, HEAD, the
/// event streams and tickets; `control` everything.
public enum TokenScope: String, Sendable, Hashable, Codable {
    case read, control

    /// Whether a caller with this scope may do what needs `access`.
    public func allows(_ access: Access) -> Bool {
        switch access {
        case .open, .read: true
        case .control: self == .control
        }
    }
}

/// What an operation needs from its caller.
public enum Access: Sendable, Hashable {
    /// Nothing: liveness and static files (the page, its scripts, `/openapi.yaml`), which hold no data.
    case open
    /// Any valid credential: reading state and events, asking for a ticket.
    case read
    /// A control credential: everything that changes the gateway or drives the head unit.
    case control
}

/// The one place that decides what each way into the gateway needs: the HTTP middleware asks it
/// for requests, the WebSocket handler for the messages a client sends on an event stream.
public enum AccessPolicy {
    /// What an HTTP request needs, by method and path. Everything outside `/v1/` and `/metrics`
    /// is a static file; `/v1/health` is open; `POST /v1/tickets` takes any scope (a read token
    /// gets a read ticket); other reads need `read`, everything else `control`.
    ///
    /// The path is classified as the router matches it (``routedPath(_:)``): `//v1/apps` and
    /// `/v1/apps/` reach `GET /v1/apps`, so they need what it needs.
    public static func required(method: HTTPRequest.Method, path: String) -> Access {
        let path = routedPath(path)
        if path == "/v1/health" { return .open }
        let isAPI = path == "/metrics" || path == "/v1" || path.hasPrefix("/v1/")
        guard isAPI else { return method == .get || method == .head ? .open : .control }
        if method == .get || method == .head { return .read }
        if method == .post, path == "/v1/tickets" { return .read }
        return .control
    }

    /// `path` as the router sees it: its segments without the empty ones, which the router skips
    /// (a doubled or trailing `/`).
    static func routedPath(_ path: String) -> String {
        "/" + path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
    }

    /// What a message sent on an event-stream WebSocket needs.
    public enum WebSocketMessage: Sendable {
        /// `{"filter": …}`: changes what the client itself receives.
        case filter
        /// `{"id", "function", "params"}`: sends an RPC to the head unit.
        case rpc
    }

    public static func required(_ message: WebSocketMessage) -> Access {
        switch message {
        case .filter: .read
        case .rpc: .control
        }
    }

    /// Throws `forbidden` unless `scope` allows `access`; `what` names the operation for people.
    public static func authorize(_ scope: TokenScope?, for access: Access, _ what: String) throws(GatewayError) {
        guard access != .open else { return }
        guard let scope else { throw GatewayError(.unauthorized, "\(what) needs a token") }
        guard scope.allows(access) else {
            throw GatewayError(.forbidden, "a read token allows reading, event streams and tickets; \(what) needs a control token")
        }
    }
}
