import HTTPAPISupport
import Hummingbird
import SDLClient
import SDLProtocol

/// `POST /v1/apps`, `GET /v1/apps`, `GET`/`PUT`/`DELETE /v1/apps/{id}` (docs/architecture.md, HTTP API)
/// and `GET /v1/apps/{id}/capabilities`. Each answers the app's summary; `?expand=capabilities`
/// puts the capabilities inside it.
struct AppRoutes: Sendable {
    let apps: GatewayApps
    let limits: GatewayLimits

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.post("v1/apps") { request, _ -> Response in
            let body = try await createBody(request)
            let expand = try Self.expandsCapabilities(request)
            let id = try await apps.create(id: body.id, core: body.core, app: body.app, wait: body.wait)
            return try created(id, expand: expand)
        }
        // Idempotent create: the app, or the one already there with the same parameters.
        router.put("v1/apps/:id") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            guard AppCreateBody.isValidID(id) else {
                throw HTTPProblem(
                    status: .badRequest, code: "invalid-path", title: "The path is not valid",
                    detail: "the app id must be 1-64 of A-Z a-z 0-9 . _ -"
                )
            }
            let expand = try Self.expandsCapabilities(request)
            let body = try await createBody(request)
            if let bodyID = body.id, bodyID != id {
                throw GatewayError(.idMismatch, "the body's id \(bodyID) is not the path's \(id)")
            }
            switch try await apps.put(id: id, core: body.core, app: body.app, wait: body.wait) {
            case .created: return try created(id, expand: expand)
            case .existing: return HTTPBody.response(try apps.resource(id, expandCapabilities: expand))
            }
        }
        router.get("v1/apps") { request, _ -> Response in
            let expand = try Self.expandsCapabilities(request)
            let resources = apps.ids.compactMap { try? apps.resource($0, expandCapabilities: expand) }
            return HTTPBody.response(["apps": .array(resources)])
        }
        router.get("v1/apps/:id") { request, context -> Response in
            HTTPBody.response(
                try apps.resource(try context.parameters.decoded("id"), expandCapabilities: try Self.expandsCapabilities(request)))
        }
        router.get("v1/apps/:id/capabilities") { _, context -> Response in
            HTTPBody.response(try apps.capabilities(try context.parameters.decoded("id")))
        }
        router.delete("v1/apps/:id") { _, context -> Response in
            let id = try context.parameters.decoded("id")
            guard await apps.delete(id: id) else { throw GatewayError(.appNotFound, "no app \(id)") }
            return Response(status: .noContent)
        }
    }

    /// A create body whose registration parameters the spec allows (else 422 `invalid-parameters`).
    private func createBody(_ request: Request) async throws -> AppCreateBody {
        let body = try AppCreateBody(try await HTTPBody.object(request, limit: limits.bodySize, optional: false))
        do throws(SDLClientError) {
            _ = try SDLRegistrationParameters.make(from: body.app, catalog: apps.options.catalog)
        } catch {
            throw GatewayError(.invalidParameters, error.detail)
        }
        return body
    }

    /// 201 with `Location` and the app.
    private func created(_ id: String, expand: Bool) throws -> Response {
        var headers = HTTPFields()
        headers[.location] = "/v1/apps/\(id)"
        return HTTPBody.response(try apps.resource(id, expandCapabilities: expand), status: .created, headers: headers)
    }

    /// `?expand=capabilities`; any other value is a 400 naming the one there is.
    static func expandsCapabilities(_ request: Request) throws(GatewayError) -> Bool {
        guard let value = request.uri.queryParameters.get("expand") else { return false }
        guard value == "capabilities" else {
            throw GatewayError(.invalidQuery, "expand=\(value): the app resource expands capabilities only (expand=capabilities)")
        }
        return true
    }
}
