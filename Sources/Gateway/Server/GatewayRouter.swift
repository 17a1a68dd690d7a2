import Foundation
import HeadUnitSimulator
import Hummingbird
import HummingbirdWebSocket
import Logging
import Prometheus
import SimulatorControl

/// The gateway's routers (STYLE.md example 9, the application builder): the HTTP router with
/// every route of ARCHITECTURE.md's "HTTP API (v1)", and the WebSocket router that decides
/// upgrades of the event streams. Tests and `sdl-gateway serve` build the same ones.
public struct GatewayRouter: Sendable {
    public let configuration: GatewayConfiguration
    public let apps: GatewayApps
    public let simulator: SimulatedHeadUnit?
    public let prometheus: PrometheusCollectorRegistry?

    public init(configuration: GatewayConfiguration, apps: GatewayApps, simulator: SimulatedHeadUnit? = nil, prometheus: PrometheusCollectorRegistry? = nil) {
        self.configuration = configuration
        self.apps = apps
        self.simulator = simulator
        self.prometheus = prometheus
    }

    /// The directory served at `/`: the configured one, else the package's built-in page.
    var publicDirectory: String? {
        configuration.publicDirectory ?? Bundle.module.resourceURL?.appendingPathComponent("public").path
    }

    var events: EventRoutes {
        EventRoutes(apps: apps, limits: configuration.limits, allowedOrigins: configuration.corsOrigins)
    }

    public func makeRouter() -> Router<GatewayRequestContext> {
        let router = Router(context: GatewayRequestContext.self)
        router.add(middleware: EdgeMiddleware(allowedOrigins: configuration.corsOrigins))
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: AuthMiddleware(tokens: configuration.tokens))
        router.add(middleware: RateLimitMiddleware(requestsPerSecond: configuration.limits.requestsPerSecond))
        if let publicDirectory {
            router.add(middleware: FileMiddleware(publicDirectory, searchForIndexHtml: true))
        }
        let executor = RPCExecutor(apps: apps)
        MetaRoutes(apps: apps, prometheus: prometheus).add(to: router)
        AppRoutes(apps: apps, limits: configuration.limits).add(to: router)
        RPCRoutes(executor: executor, limits: configuration.limits).add(to: router)
        FileRoutes(apps: apps, limits: configuration.limits).add(to: router)
        SpecRoutes(catalog: apps.options.catalog).add(to: router)
        events.add(to: router)
        if let simulator {
            SimulatorControlRoutes(simulator: simulator).add(to: router.group("v1/simulator"))
        }
        return router
    }

    public func makeWebSocketRouter() -> Router<GatewayRequestContext> {
        let router = Router(context: GatewayRequestContext.self)
        router.add(middleware: AuthMiddleware(tokens: configuration.tokens))
        events.addWebSocket(to: router)
        return router
    }

    /// The contract the server serves at `/openapi.yaml`.
    public static var openAPIDocument: String? { MetaRoutes.openAPIDocument.map { String(buffer: $0) } }

    /// Every operation as `(METHOD, path)` with `{name}` parameters: what `openapi.yaml` must
    /// list (checked by a test).
    public static let operations: [(method: String, path: String)] = [
        ("GET", "/v1/health"), ("GET", "/v1/ready"), ("GET", "/metrics"), ("GET", "/openapi.yaml"), ("GET", "/"),
        ("POST", "/v1/apps"), ("GET", "/v1/apps"), ("GET", "/v1/apps/{id}"), ("DELETE", "/v1/apps/{id}"),
        ("POST", "/v1/apps/{id}/rpc/{function}"), ("POST", "/v1/apps/{id}/batch"), ("GET", "/v1/apps/{id}/vehicle-data"),
        ("PUT", "/v1/apps/{id}/subscriptions/vehicle-data"), ("DELETE", "/v1/apps/{id}/subscriptions/vehicle-data"),
        ("PUT", "/v1/apps/{id}/subscriptions/buttons/{button}"), ("DELETE", "/v1/apps/{id}/subscriptions/buttons/{button}"),
        ("PUT", "/v1/apps/{id}/files/{name}"), ("GET", "/v1/apps/{id}/files"), ("DELETE", "/v1/apps/{id}/files/{name}"),
        ("GET", "/v1/apps/{id}/events"), ("GET", "/v1/events"), ("GET", "/v1/spec"), ("GET", "/v1/spec/functions/{name}"),
    ]
}
