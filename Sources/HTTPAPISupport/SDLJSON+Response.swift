import Hummingbird
import NIOCore
import SDLProtocol

extension SDLJSON: ResponseGenerator {
    /// A JSON body, status 200.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        httpResponse(status: .ok)
    }

    /// A JSON body with `status`.
    public func httpResponse(status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: serializedBytes())))
    }
}
