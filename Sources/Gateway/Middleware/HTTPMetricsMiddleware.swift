import Hummingbird
import HummingbirdCore
import Metrics
import Synchronization

/// Hummingbird's request metrics, with the names and dimensions of its `MetricsMiddleware`
/// (`hb.requests` and `http.server.request.duration` by route, method and status,
/// `hb.request.errors` by route, method and error status, `http.server.active_requests` by
/// method), recorded without changing how the response is written.
///
/// Hummingbird's middleware wraps every response body in a closure so as to record once it was
/// written. A body that was one buffer then no longer takes the server's single-write path: the
/// head and the body go out in two `write(2)` calls, as two TCP segments a client reads apart,
/// through three suspensions of the connection's writer instead of one (BENCHMARKS.md, "the
/// response in one write"). Here a body of known length (every JSON answer, a problem, a file)
/// is recorded when the handler returns it, and only a body of unknown length (an event stream)
/// is wrapped, so that it counts as active, and its duration runs, until it ends.
struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let cache = HTTPMetricsCache()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let active = cache.active(request.method)
        active.increment()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let metrics = cache.endpoint(context.endpointPath ?? "NotFound", request.method, status)
            metrics.requests.increment()
            metrics.errors.increment()
            active.decrement()
            throw error
        }
        let metrics = cache.endpoint(context.endpointPath ?? "Unknown", request.method, response.status)
        guard response.body.contentLength == nil else {
            metrics.record(since: started, active: active)
            return response
        }
        let body = response.body
        response.body = ResponseBody { writer in
            defer { metrics.record(since: started, active: active) }
            try await body.write(writer)
        }
        return response
    }
}

/// The metric objects, made once per method and per route, method and status (a metrics
/// factory's lookup is not free, and every request needs them).
final class HTTPMetricsCache: Sendable {
    struct Endpoint: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    struct EndpointMetrics: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter

        init(_ key: Endpoint) {
            let dimensions = [
                ("http.route", key.route), ("http.request.method", key.method), ("http.response.status_code", "\(key.status)"),
            ]
            requests = Counter(label: "hb.requests", dimensions: dimensions)
            duration = Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            errors = Counter(
                label: "hb.request.errors",
                dimensions: [
                    ("http.route", key.route), ("http.request.method", key.method), ("error.type", "\(key.status)"),
                ]
            )
        }

        /// Counts the request and its duration, and ends it as active.
        func record(since started: ContinuousClock.Instant, active: Meter) {
            requests.increment()
            duration.record(duration: ContinuousClock.now - started)
            active.decrement()
        }
    }

    private let endpoints = Mutex<[Endpoint: EndpointMetrics]>([:])
    private let methods = Mutex<[String: Meter]>([:])

    /// The methods named as they are; any other (a client may send any token) is `_OTHER`, as
    /// OpenTelemetry's HTTP conventions have it, so that clients cannot grow the cache or the
    /// exported series.
    static func name(_ method: HTTPRequest.Method) -> String {
        switch method {
        case .get, .head, .post, .put, .patch, .delete, .options, .connect, .trace: method.rawValue
        default: "_OTHER"
        }
    }

    func endpoint(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> EndpointMetrics {
        let key = Endpoint(route: route, method: Self.name(method), status: status.code)
        return endpoints.withLock { cached in
            if let metrics = cached[key] { return metrics }
            let metrics = EndpointMetrics(key)
            cached[key] = metrics
            return metrics
        }
    }

    func active(_ method: HTTPRequest.Method) -> Meter {
        let name = Self.name(method)
        return methods.withLock { cached in
            if let meter = cached[name] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", name)])
            cached[name] = meter
            return meter
        }
    }
}
