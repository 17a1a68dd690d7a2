import Foundation
import HTTPAPISupport
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Prometheus

/// The gateway's routers (Hummingbird's application builder): the HTTP router with
/// every route of docs/architecture.md's "HTTP API (v1)", and the WebSocket router that decides
/// upgrades of the event streams. Tests and `sdl-gateway serve` build the same ones.
public struct GatewayRouter: Sendable {
    public let configuration: GatewayConfiguration
    public let apps: GatewayApps
    /// Routes handed in by the command (the simulator's control API).
    public let routeGroups: [GatewayRouteGroup]
    public let prometheus: PrometheusCollectorRegistry?
    /// Who may do what, shared by both routers (one failed-authentication budget, one ticket store).
    public let authenticator: Authenticator
    /// One request budget per client, shared by both routers (WebSocket upgrades count too).
    let rateLimit: RateLimitMiddleware
    /// One sender per app and streaming service, shared by both routers (a WebSocket and a streamed POST).
    let streamSenders = StreamSenders()

    public init(
        configuration: GatewayConfiguration, apps: GatewayApps, routeGroups: [GatewayRouteGroup] = [],
        prometheus: PrometheusCollectorRegistry? = nil
    ) {
        self.configuration = configuration
        self.apps = apps
        self.routeGroups = routeGroups
        self.prometheus = prometheus
        self.authenticator = Authenticator(tokens: configuration.tokens, failuresPerMinute: configuration.limits.authFailuresPerMinute)
        self.rateLimit = RateLimitMiddleware(requestsPerSecond: configuration.limits.requestsPerSecond)
    }

    var events: EventRoutes {
        EventRoutes(apps: apps, limits: configuration.limits, origins: origins, rateLimit: rateLimit)
    }

    func streams(_ executor: RPCExecutor) -> StreamRoutes {
        StreamRoutes(apps: apps, executor: executor, limits: configuration.limits, origins: origins, senders: streamSenders)
    }

    /// Which pages may call the gateway: the CORS origins and its own; and, without tokens on
    /// loopback, only loopback Host names (DNS rebinding). SECURITY.md.
    var origins: BrowserOriginRule {
        BrowserOriginRule(
            allowedOrigins: configuration.corsOrigins,
            loopbackHostsOnly: configuration.tokens.isEmpty && BrowserOriginRule.isLoopback(host: Substring(configuration.host))
        )
    }

    /// Every GET route answers HEAD too, as GET without the body (its `Content-Length` kept):
    /// the router makes a HEAD route for each GET route without one (the event streams have their own).
    public func makeRouter() -> Router<GatewayRequestContext> {
        let router = Router(context: GatewayRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: EdgeMiddleware(origins: origins, operations: allOperations))
        router.add(middleware: RequestLogMiddleware(level: .info))
        router.add(middleware: HTTPMetricsMiddleware())
        router.add(middleware: AuthMiddleware(authenticator: authenticator))
        router.add(middleware: rateLimit)
        router.add(middleware: QueryParametersMiddleware(operations: allOperations))
        // The page at `/`: the configured directory, else the built-in page embedded in the code.
        if let publicDirectory = configuration.publicDirectory {
            router.add(middleware: FileMiddleware(publicDirectory, searchForIndexHtml: true))
        } else {
            router.add(middleware: EmbeddedFileMiddleware(resources: EmbeddedResources.files))
        }
        let executor = RPCExecutor(apps: apps)
        MetaRoutes(apps: apps, prometheus: prometheus).add(to: router)
        AppRoutes(apps: apps, limits: configuration.limits).add(to: router)
        RPCRoutes(executor: executor, limits: configuration.limits).add(to: router)
        AudioRoutes(executor: executor, limits: configuration.limits).add(to: router)
        FileRoutes(apps: apps, limits: configuration.limits).add(to: router)
        ScreenRoutes(apps: apps, limits: configuration.limits).add(to: router)
        MenuRoutes(apps: apps, limits: configuration.limits).add(to: router)
        InteractionRoutes(apps: apps, limits: configuration.limits).add(to: router)
        ImageRoutes(images: apps.images, limits: configuration.limits).add(to: router)
        SpecRoutes(catalog: apps.options.catalog).add(to: router)
        TicketRoutes(tickets: authenticator.tickets).add(to: router)
        events.add(to: router)
        streams(executor).add(to: router)
        for group in routeGroups {
            group.addRoutes(router.group(RouterPath(group.path)), apps)
        }
        return router
    }

    public func makeWebSocketRouter() -> Router<GatewayRequestContext> {
        let router = Router(context: GatewayRequestContext.self)
        router.add(middleware: AuthMiddleware(authenticator: authenticator))
        router.add(middleware: rateLimit)
        router.add(middleware: QueryParametersMiddleware(operations: allOperations))
        // A browser's upgrade meets the origin rule every HTTP request meets (EdgeMiddleware does not see these).
        for group in routeGroups {
            group.addWebSocketRoutes?(router.group(RouterPath(group.path)).add(middleware: BrowserOriginMiddleware(rule: origins)), apps)
        }
        events.addWebSocket(to: router)
        streams(RPCExecutor(apps: apps)).addWebSocket(to: router)
        return router
    }

    /// HTTP/1.1 with WebSocket upgrades to ``makeWebSocketRouter()``: no frame, and so no
    /// message, larger than the configured WebSocket message size (1009 to the sender); pings
    /// every 20 s from each connection's loop find dead clients (``WebSocketKeepAlive``, which
    /// ``ServedConnectionChannel`` gives every connection); a request body slower than `limits.minimumBodyRate` closes its
    /// connection (``MinimumBodyRate``); a connection whose first request head is not complete within
    /// the request head timeout is answered 408 and closed (``RequestHeadDeadline``), one whose
    /// first head the HTTP decoder refuses is answered 431 or 400 and closed
    /// (``MalformedHeadAnswer``); a refused upgrade is answered with the WebSocket router's
    /// problem (``RefusedUpgradeAnswer``), not Hummingbird's empty 400; one idle between
    /// requests, or stalled inside one, for the configured idle timeout is closed; a client that leaves is noticed at once
    /// (``ConnectionCloseWatcher``), so its SSE stream ends.
    public func makeServer() -> HTTPServerBuilder {
        let webSocketResponder = UpgradeRefusalRecorder(inner: makeWebSocketRouter().buildResponder())
        let bodyRate = MinimumBodyRate.Rule(
            bytesPerSecond: configuration.limits.minimumBodyRate, grace: TimeAmount(configuration.limits.bodyRateGrace),
            interval: .seconds(1)
        )
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                additionalChannelHandlers: [
                    ConnectionCloseWatcher(), MinimumBodyRate(rule: bodyRate, logger: Logger(label: "sdl-gateway")),
                ],
                idleTimeout: TimeAmount(configuration.limits.idleTimeout)
            ),
            ws: .init(maxFrameSize: configuration.limits.webSocketMessageSize, autoPing: .disabled)
        )
        let headTimeout = TimeAmount(configuration.limits.requestHeadTimeout)
        return HTTPServerBuilder { responder in
            ServedConnectionChannel(
                requestHeadTimeout: headTimeout,
                inner: MalformedHeadAnswerChannel(
                    inner: RefusedUpgradeAnswerChannel(
                        inner: HTTP1WebSocketUpgradeChannel(
                            responder: responder, webSocketResponder: webSocketResponder, configuration: channel)
                    )
                )
            )
        }
    }

    /// The contract the server serves at `/openapi.yaml`.
    public static var openAPIDocument: String? { MetaRoutes.openAPIDocument.map { String(buffer: $0) } }

    /// Every operation with `{name}` path parameters and the query parameters it takes: what
    /// `openapi.yaml` must list (checked by a test), and what ``QueryParametersMiddleware`` enforces.
    public static let operations: [APIOperation] = [
        APIOperation("GET", "/v1/health"), APIOperation("GET", "/v1/ready"), APIOperation("GET", "/metrics"),
        APIOperation("GET", "/openapi.yaml"), APIOperation("GET", "/"),
        APIOperation("POST", "/v1/apps", query: ["expand"]), APIOperation("GET", "/v1/apps", query: ["expand"]),
        APIOperation("GET", "/v1/apps/{id}", query: ["expand"]), APIOperation("PUT", "/v1/apps/{id}", query: ["expand"]),
        APIOperation("DELETE", "/v1/apps/{id}"), APIOperation("GET", "/v1/apps/{id}/capabilities"),
        APIOperation("POST", "/v1/apps/{id}/rpc/{function}", query: ["timeout", "validate", "checkPermissions"]),
        APIOperation("POST", "/v1/apps/{id}/batch"),
        APIOperation("GET", "/v1/apps/{id}/screen"), APIOperation("PUT", "/v1/apps/{id}/screen"),
        APIOperation("PATCH", "/v1/apps/{id}/screen"),
        APIOperation("GET", "/v1/apps/{id}/media"), APIOperation("PUT", "/v1/apps/{id}/media"),
        APIOperation("GET", "/v1/apps/{id}/menu"), APIOperation("PUT", "/v1/apps/{id}/menu"),
        APIOperation("GET", "/v1/apps/{id}/voice-commands"), APIOperation("PUT", "/v1/apps/{id}/voice-commands"),
        APIOperation("POST", "/v1/apps/{id}/interactions"), APIOperation("POST", "/v1/apps/{id}/alerts"),
        APIOperation("GET", "/v1/images"), APIOperation("GET", "/v1/images/{name}"),
        APIOperation("PUT", "/v1/images/{name}", query: ["fileType"]),
        APIOperation("DELETE", "/v1/images/{name}"),
        APIOperation("GET", "/v1/apps/{id}/vehicle-data", query: ["names"]),
        APIOperation("PUT", "/v1/apps/{id}/subscriptions/vehicle-data", query: ["owner"]),
        APIOperation("DELETE", "/v1/apps/{id}/subscriptions/vehicle-data", query: ["names", "owner"]),
        APIOperation("PUT", "/v1/apps/{id}/subscriptions/buttons/{button}", query: ["owner"]),
        APIOperation("DELETE", "/v1/apps/{id}/subscriptions/buttons/{button}", query: ["owner"]),
        APIOperation("PUT", "/v1/apps/{id}/files/{name}", query: ["fileType", "persistent", "system", "chunkSize"]),
        APIOperation("GET", "/v1/apps/{id}/files"), APIOperation("GET", "/v1/apps/{id}/files/{name}"),
        APIOperation("DELETE", "/v1/apps/{id}/files/{name}"),
        APIOperation("POST", "/v1/apps/{id}/audio-pass-thru"), APIOperation("GET", "/v1/apps/{id}/audio-pass-thru/last.wav"),
        APIOperation("PUT", "/v1/apps/{id}/video"), APIOperation("GET", "/v1/apps/{id}/video"),
        APIOperation("DELETE", "/v1/apps/{id}/video"), APIOperation("POST", "/v1/apps/{id}/video/stream"),
        APIOperation("PUT", "/v1/apps/{id}/video/stream"),
        APIOperation("PUT", "/v1/apps/{id}/audio-stream"), APIOperation("GET", "/v1/apps/{id}/audio-stream"),
        APIOperation("DELETE", "/v1/apps/{id}/audio-stream"), APIOperation("POST", "/v1/apps/{id}/audio-stream/stream"),
        APIOperation("PUT", "/v1/apps/{id}/audio-stream/stream"),
        APIOperation("GET", "/v1/apps/{id}/events", query: ["types", "names", "since", "ticket", "audio"]),
        APIOperation("GET", "/v1/events", query: ["types", "names", "ticket", "audio"]),
        APIOperation("POST", "/v1/tickets"),
        APIOperation("GET", "/v1/spec"), APIOperation("GET", "/v1/spec/functions/{name}", query: ["optional"]),
        APIOperation("GET", "/v1/spec/types/{name}"),
    ]

    /// The gateway's operations and those of the route groups handed in.
    public var allOperations: [APIOperation] { Self.operations + routeGroups.flatMap(\.mountedOperations) }
}
