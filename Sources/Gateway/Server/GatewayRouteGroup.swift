import HTTPAPISupport
import Hummingbird

/// Routes the command hands the gateway, mounted under a path: the simulator's control API at
/// `v1/simulator` with `serve --simulate` (later the headless HMI's). The gateway does not know
/// what serves them; it runs them behind the same middleware (auth, limits, problems) as its own.
public struct GatewayRouteGroup: Sendable {
    /// Where the routes are mounted, without slashes around it (`v1/simulator`).
    public var path: String
    /// The group's operations relative to ``path``, as `openapi.yaml` lists them under it.
    public var operations: [APIOperation]
    /// Adds the routes to the group the gateway made at ``path``; they may look up the gateway's
    /// apps (the simulator's routes take a gateway app id where they take an SDL appID).
    public var addRoutes: @Sendable (RouterGroup<GatewayRequestContext>, GatewayApps) -> Void
    /// Adds the group's WebSocket routes (the headless HMI's stream) to the group the gateway made
    /// at ``path`` on its WebSocket router, behind the same auth as the event streams.
    public var addWebSocketRoutes: (@Sendable (RouterGroup<GatewayRequestContext>, GatewayApps) -> Void)?

    public init(
        path: String, operations: [APIOperation], addRoutes: @escaping @Sendable (RouterGroup<GatewayRequestContext>, GatewayApps) -> Void,
        addWebSocketRoutes: (@Sendable (RouterGroup<GatewayRequestContext>, GatewayApps) -> Void)? = nil
    ) {
        self.path = path
        self.operations = operations
        self.addRoutes = addRoutes
        self.addWebSocketRoutes = addWebSocketRoutes
    }

    /// The operations with their full paths.
    public var mountedOperations: [APIOperation] { operations.map { $0.mounted(at: "/\(path)/") } }

    /// A group the command knows of but does not run (the simulator without `--simulate`): each
    /// of its operations answers 404 with `detail`, instead of "no route" or a 405.
    public static func unavailable(path: String, operations: [APIOperation], detail: String) -> GatewayRouteGroup {
        GatewayRouteGroup(path: path, operations: operations) { group, _ in
            for operation in operations {
                guard let method = HTTPRequest.Method(operation.method) else { continue }
                let route = operation.path.split(separator: "/").map { $0.hasPrefix("{") ? ":" + $0.dropFirst().dropLast() : $0 }.joined(
                    separator: "/")
                group.on(RouterPath(route), method: method) { _, _ -> Response in
                    throw GatewayError(.notFound, detail)
                }
            }
        }
    }
}
