import Hummingbird
import HTTPAPISupport
import SDLSpec

/// Refuses query parameters an operation does not take with a 400 `invalid-query` naming the
/// ones it does: a misspelt `?timout=` would otherwise be ignored without a word. Requests for
/// paths that are not operations of the API (static files, unknown routes) pass untouched.
struct QueryParametersMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let operations: [APIOperation]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try Self.check(request, operations: operations)
        return try await next(request, context)
    }

    static func check(_ request: Request, operations: [APIOperation]) throws(GatewayError) {
        guard request.uri.query != nil else { return }
        let method = request.method == .head ? "GET" : request.method.rawValue
        guard let operation = operations.first(where: { $0.method == method && $0.matches(path: request.uri.path) }) else { return }
        for (name, _) in request.uri.queryParameters where !operation.query.contains(String(name)) {
            let accepted = operation.query.isEmpty ? "none" : operation.query.sorted().joined(separator: ", ")
            let suggestion = SDLSpelling.didYouMean(String(name), among: operation.query)
            throw GatewayError(
                .invalidQuery, "unknown query parameter \"\(name)\"\(suggestion): \(operation.method) \(operation.path) takes \(accepted)")
        }
    }
}
