import Hummingbird
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// What the command runs in-process beside the gateway and hands to it, such as the head-unit
/// simulator: services that start before the apps and stop after them, and routes mounted in
/// the gateway's router. The gateway links without knowing what they are.
public struct GatewayCompanion: Sendable {
    public var services: [any Service]
    public var routeGroups: [GatewayRouteGroup]

    public init(services: [any Service] = [], routeGroups: [GatewayRouteGroup] = []) {
        self.services = services
        self.routeGroups = routeGroups
    }
}

/// The gateway as one application (Hummingbird's `buildApplication` pattern):
/// the event hub, the apps service with the startup apps queued, the routers, the HTTP server
/// with WebSocket upgrades, and the services that run beside it. `sdl-gateway serve` runs it and
/// every gateway test harness tests it, so the tests run what production runs.
///
/// Services start in order (the companion's, then the apps, then the server) and stop in
/// reverse: the server stops accepting first, the apps unregister next, the simulator stops
/// last. The event streams must end before the server is told (WebSockets close with 1001):
/// whoever runs the application runs an ``EventStreamCloser`` of `apps.hub` after it in its
/// service group, as `sdl-gateway serve` does.
public func buildApplication(
    _ configuration: GatewayConfiguration,
    companion: GatewayCompanion = GatewayCompanion(),
    prometheus: PrometheusCollectorRegistry? = nil,
    logger: Logger = Logger(label: "sdl-gateway"),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) async throws -> (application: some ApplicationProtocol, apps: GatewayApps) {
    let hub = EventHub(limits: configuration.events)
    let apps = GatewayApps(
        options: configuration.sessions, hub: hub, imageStoreSize: configuration.limits.imageStoreSize,
        audioRecordingSize: configuration.limits.audioRecordingSize, logger: logger)
    for startup in configuration.startupApps {
        _ = try await apps.create(id: startup.id, core: startup.core, app: startup.app, wait: false)
    }
    let gateway = GatewayRouter(configuration: configuration, apps: apps, routeGroups: companion.routeGroups, prometheus: prometheus)
    let application = Application(
        router: gateway.makeRouter(),
        server: gateway.makeServer(),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sdl-gateway"),
        services: companion.services + [apps],
        onServerRunning: onServerRunning,
        logger: logger
    )
    return (application, apps)
}
