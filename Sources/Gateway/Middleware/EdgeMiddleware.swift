import Foundation
import HTTPTypes
import Hummingbird
import Logging
import HTTPAPISupport
import SDLProtocol

/// The outermost middleware: every response gets `X-Request-ID`, CORS headers for allowed
/// origins (and answers preflight `OPTIONS`), and every error becomes `application/problem+json`
/// (a route that does not exist too), so the CORS headers reach the browser with it.
struct EdgeMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    /// The CORS origins, the gateway's own, and the Host names it answers (``BrowserOriginRule``).
    let origins: BrowserOriginRule
    /// Every operation of the API, for the `Allow` of 405 answers.
    let operations: [APIOperation]

    func allows(origin: String) -> Bool {
        origins.allows(origin: origin)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let origin = request.headers[.origin]
        var response: Response
        if let refusal = origins.refusal(origin: origin, authority: request.head.authority) {
            // A page of another origin, a simple request included (no preflight), or a re-pointed name.
            response = render(GatewayError(refusal), request: request, context: context)
            response.headers[.xRequestID] = context.id
            SecurityHeaders.apply(to: &response.headers)
            return response
        }
        if request.method == .options, origin != nil, request.headers[.accessControlRequestMethod] != nil {
            response = Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = "GET, POST, PUT, DELETE, OPTIONS"
            response.headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders] ?? "authorization, content-type"
            response.headers[.accessControlMaxAge] = "600"
        } else {
            do {
                response = try await next(request, context)
            } catch {
                response = render(error, request: request, context: context)
            }
        }
        if let origin, allows(origin: origin) {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = "SDL-Correlation-ID, Server-Timing, X-Request-ID, Retry-After, Location"
            response.headers[.vary] = "Origin"
        }
        response.headers[.xRequestID] = context.id
        SecurityHeaders.apply(to: &response.headers)
        return response
    }

    /// An error as a problem response: gateway errors as they are, Hummingbird's HTTP errors
    /// (no such route, body too large …) with the matching code, anything else as `internal`.
    func render(_ error: any Error, request: Request, context: Context) -> Response {
        let gatewayError: GatewayError
        switch error {
        case let error as GatewayError:
            gatewayError = error
        case let error as HTTPError:
            // Hummingbird's own refusals: one mapping for both APIs (HTTPAPISupport).
            if error.status.code >= 500 { context.logger.error("request failed", metadata: ["error": "\(error)"]) }
            return HTTPProblem.response(for: error, request, operations: operations)
        case let error as any HTTPResponseError:
            // The simulator's control problems and other errors that know their response.
            if let response = try? error.response(from: request, context: context) { return response }
            gatewayError = GatewayError.from(error)
        default:
            gatewayError = GatewayError.from(error)
        }
        if gatewayError.status.code >= 500 {
            context.logger.error("request failed", metadata: ["error": "\(gatewayError)"])
        }
        return (try? gatewayError.response(from: request, context: context)) ?? Response(status: .internalServerError)
    }
}

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-ID")!
    static let sdlCorrelationID = Self("SDL-Correlation-ID")!
    static let serverTiming = Self("Server-Timing")!
    static let lastEventID = Self("Last-Event-ID")!
}
