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
    /// Adds the routes to the group the gateway made at ``path``.
    public var addRoutes: @Sendable (RouterGroup<GatewayRequestContext>) -> Void

    public init(path: String, operations: [APIOperation], addRoutes: @escaping @Sendable (RouterGroup<GatewayRequestContext>) -> Void) {
        self.path = path
        self.operations = operations
        self.addRoutes = addRoutes
    }

    /// The operations with their full paths.
    public var mountedOperations: [APIOperation] { operations.map { $0.mounted(at: "/\(path)/") } }
}
