import Hummingbird
import NIOCore
import SDLProtocol
import HTTPAPISupport

/// Reading request bodies and writing JSON responses, with the API's limits.
enum HTTPBody {
    /// The body as JSON, at most `limit` bytes; an empty body is `{}` when `optional`.
    static func json(_ request: Request, limit: Int, optional: Bool = true) async throws(GatewayError) -> SDLJSON {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch {
            throw GatewayError(.bodyTooLarge, "the body is larger than \(limit) bytes")
        }
        if buffer.readableBytes == 0 {
            guard optional else { throw GatewayError(.invalidBody, "a JSON body is required") }
            return [:]
        }
        guard JSONContentType.accepts(request.headers[.contentType]) else {
            throw GatewayError(
                .unsupportedMediaType,
                "send JSON bodies with Content-Type: application/json (got \(request.headers[.contentType] ?? "none"))")
        }
        do {
            return try SDLJSON.parse(buffer)
        } catch {
            throw GatewayError(.invalidBody, error.jsonBodyDetail(in: buffer.readableBytesView))
        }
    }

    /// A JSON object body.
    static func object(_ request: Request, limit: Int, optional: Bool = true) async throws(GatewayError) -> [String: SDLJSON] {
        guard let object = try await json(request, limit: limit, optional: optional).objectValue else {
            throw GatewayError(.invalidBody, "the body must be a JSON object")
        }
        return object
    }

    static func response(_ value: SDLJSON, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: value.serializedBytes())))
    }

    /// The response of an RPC with `SDL-Correlation-ID` and `Server-Timing` (gateway and head unit).
    static func rpcResponse(_ outcome: RPCExecutor.Outcome, started: ContinuousClock.Instant) -> Response {
        let total = ContinuousClock.now - started
        let gateway = max(0, total.milliseconds - outcome.headUnitTime.milliseconds)
        var headers = HTTPFields()
        headers[.sdlCorrelationID] = String(outcome.correlationID)
        headers[.serverTiming] = "gateway;dur=\(rounded(gateway)), headunit;dur=\(rounded(outcome.headUnitTime.milliseconds))"
        return response(outcome.response, headers: headers)
    }

    private static func rounded(_ milliseconds: Double) -> String {
        String(Double(Int((milliseconds * 1000).rounded())) / 1000)
    }
}

/// Query values of the API.
enum Query {
    static func bool(_ request: Request, _ name: String, default value: Bool) throws(GatewayError) -> Bool {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw GatewayError(.invalidQuery, "\(name) must be true or false, got \(text)")
        }
    }

    static func int(_ request: Request, _ name: String, in range: ClosedRange<Int64>) throws(GatewayError) -> Int64? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw GatewayError(.invalidQuery, "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got \(text)")
        }
        return value
    }

    /// A comma-separated list; nil when absent, an error when present but empty.
    static func list(_ request: Request, _ name: String) throws(GatewayError) -> [String]? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        let items = text.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        guard !items.isEmpty else { throw GatewayError(.invalidQuery, "\(name) must list at least one name") }
        return items
    }
}

extension String {
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
