import Hummingbird
import Logging

extension HTTPProblem {
    /// The answer to a request no route took: a 405 `method-not-allowed` with `Allow` when the
    /// path is one of `operations` under another method, else `nil` (the caller's 404). A path
    /// with GET allows HEAD as well (both routers answer HEAD as GET without the body).
    public static func methodNotAllowed(_ request: Request, operations: [APIOperation]) -> Response? {
        var methods = Set(operations.filter { $0.matches(path: request.uri.path) }.map(\.method))
        if methods.contains("GET") { methods.insert("HEAD") }
        let allowed = Array(methods).sorted()
        guard !allowed.isEmpty else { return nil }
        var headers = HTTPFields()
        headers[.allow] = allowed.joined(separator: ", ")
        return response(
            status: .methodNotAllowed, code: "method-not-allowed", title: "Method not allowed",
            detail: "\(request.method) is not allowed on \(request.uri.path); allowed: \(allowed.joined(separator: ", "))", headers: headers
        )
    }

    /// Hummingbird's own refusals (no route, a body over the limit, a malformed request) as
    /// problems with the codes and titles the gateway's own errors have, so no answer of either
    /// API is an empty body and both say the same.
    public static func response(for error: HTTPError, _ request: Request, operations: [APIOperation]) -> Response {
        switch error.status {
        case .notFound:
            return methodNotAllowed(request, operations: operations)
                ?? response(
                    status: .notFound, code: "not-found", title: "Not found", detail: "no route \(request.method) \(request.uri.path)")
        case .methodNotAllowed:
            return response(
                status: .methodNotAllowed, code: "method-not-allowed", title: "Method not allowed",
                detail: error.body ?? "\(request.method) is not allowed on \(request.uri.path)")
        case .contentTooLarge:
            return response(
                status: .contentTooLarge, code: "body-too-large", title: "Body too large",
                detail: error.body ?? "the body is over the limit")
        case .badRequest:
            return response(
                status: .badRequest, code: "invalid-body", title: "Invalid body", detail: error.body ?? "the request is malformed")
        default:
            return response(status: error.status, code: "internal", title: "Internal", detail: error.body ?? "\(error.status)")
        }
    }
}

/// Answers every error of a router as `application/problem+json`: what the simulator's
/// standalone control API puts outermost (the gateway's edge middleware does this and more).
public struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let operations: [APIOperation]

    /// - Parameter operations: the router's operations, for the `Allow` of 405 answers.
    public init(operations: [APIOperation]) {
        self.operations = operations
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return HTTPProblem.response(for: error, request, operations: operations)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            return HTTPProblem.response(
                status: .internalServerError, code: "internal", title: "Internal", detail: "an internal error; see the log")
        }
    }
}
