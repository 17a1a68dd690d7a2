import Hummingbird
import HummingbirdCore
import Logging

/// One log line per request with its method, path, query (a `ticket` value redacted: it is a
/// credential), status and duration, under the request id Hummingbird gives the logger.
/// Headers are never logged (they carry tokens).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = GatewayRequestContext

    let level: Logger.Level

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The line's metadata is made only when the line is written.
        guard context.logger.logLevel <= level else { return try await next(request, context) }
        let start = ContinuousClock.now
        var metadata: Logger.Metadata = ["hb.request.method": "\(request.method)", "hb.request.path": "\(Self.redacted(request.uri))"]
        do {
            let response = try await next(request, context)
            metadata["hb.response.status"] = "\(response.status.code)"
            metadata["duration"] = "\(ContinuousClock.now - start)"
            context.logger.log(level: level, "request", metadata: metadata)
            return response
        } catch {
            metadata["error"] = "\(error)"
            context.logger.log(level: level, "request failed", metadata: metadata)
            throw error
        }
    }

    /// The path and query with the value of every `ticket` parameter replaced by `…`.
    static func redacted(_ uri: URI) -> String {
        guard let query = uri.query, query.contains("ticket=") else { return uri.description }
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("ticket=") ? "ticket=…" : String(part)
        }
        return uri.path + "?" + parts.joined(separator: "&")
    }
}
