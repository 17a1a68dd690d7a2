import Foundation
import Hummingbird
import NIOCore
import Prometheus
import SDLClient
import SDLProtocol
import SDLTransport

/// `GET /v1/health`, `GET /v1/ready`, `GET /metrics`, `GET /openapi.yaml`.
struct MetaRoutes: Sendable {
    let apps: GatewayApps
    let prometheus: PrometheusCollectorRegistry?

    /// The contract, served as written (`Resources/openapi.yaml`, embedded in the code).
    static let openAPIDocument: ByteBuffer? = EmbeddedResources.bytes("openapi.yaml").map { ByteBuffer(bytes: $0) }

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.get("v1/health") { _, _ -> Response in
            HTTPBody.response(["status": "ok"])
        }
        router.get("v1/ready") { _, _ -> Response in
            try await readiness()
        }
        router.get("metrics") { _, _ -> Response in
            var bytes: [UInt8] = []
            prometheus?.emit(into: &bytes)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("openapi.yaml") { _, _ -> Response in
            guard let document = Self.openAPIDocument else { throw GatewayError(.notFound, "the OpenAPI document is not installed") }
            var headers = HTTPFields()
            headers[.contentType] = "application/yaml"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: document))
        }
    }

    /// How long the readiness probe may take to connect, and again to upgrade to WebSocket.
    static let probeTimeout: TimeAmount = .seconds(1)

    /// Ready when every app is registered, or, with no apps, when the head unit takes an app
    /// connection (``SDLTransportClient/probe(_:configuration:)``: for ws and wss its WebSocket
    /// upgrade too) within ``probeTimeout``, on the head-unit links' event loops.
    private func readiness() async throws -> Response {
        let states = apps.connectionStates
        let registered = states.filter { $0 == .registered }.count
        let core = apps.options.defaultCore
        let body: SDLJSON = [
            "status": "ready", "core": .string(core.description),
            "apps": ["total": .int(Int64(states.count)), "registered": .int(Int64(registered))],
        ]
        if !states.isEmpty {
            let waiting = states.filter { $0 == .connecting || $0 == .reconnecting }.count
            guard waiting == 0 else { throw GatewayError(.notConnected, "\(waiting) of \(states.count) apps are not registered") }
            return HTTPBody.response(body)
        }
        do {
            let transport = SDLTransportClient.Configuration(connectTimeout: Self.probeTimeout, eventLoopGroup: apps.options.eventLoopGroup)
            try await SDLTransportClient.probe(core, configuration: transport)
        } catch {
            throw GatewayError(.notConnected, "the head unit at \(core) does not accept connections: \(error)")
        }
        return HTTPBody.response(body)
    }
}
