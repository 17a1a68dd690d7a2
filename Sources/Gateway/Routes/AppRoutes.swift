import HTTPAPISupport
import Hummingbird
import SDLClient
import SDLProtocol

/// `POST /v1/apps`, `GET /v1/apps`, `GET`/`DELETE /v1/apps/{id}` (ARCHITECTURE.md, HTTP API).
struct AppRoutes: Sendable {
    let apps: GatewayApps
    let limits: GatewayLimits

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/apps") { request, _ -> Response in
            let body = try AppCreateBody(try await HTTPBody.object(request, limit: limits.bodySize, optional: false))
            do throws(SDLClientError) {
                _ = try SDLRegistrationParameters.make(from: body.app, catalog: apps.options.catalog)
            } catch {
                throw GatewayError(.invalidParameters, error.detail)
            }
            let id = try await apps.create(id: body.id, core: body.core, app: body.app, wait: body.wait)
            var headers = HTTPFields()
            headers[.location] = "/v1/apps/\(id)"
            return HTTPBody.response(try apps.resource(id), status: .created, headers: headers)
        }
        router.get("v1/apps") { _, _ -> Response in
            let resources = apps.ids.compactMap { try? apps.resource($0) }
            return HTTPBody.response(["apps": .array(resources)])
        }
        router.get("v1/apps/:id") { _, context -> Response in
            HTTPBody.response(try apps.resource(try context.parameters.decoded("id")))
        }
        router.delete("v1/apps/:id") { _, context -> Response in
            let id = try context.parameters.decoded("id")
            guard await apps.delete(id: id) else { throw GatewayError(.appNotFound, "no app \(id)") }
            return Response(status: .noContent)
        }
    }
}
