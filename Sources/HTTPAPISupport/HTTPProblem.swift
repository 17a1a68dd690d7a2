import Hummingbird
import NIOCore
import SDLProtocol

/// An RFC 9457 problem (`application/problem+json`) with a stable `type`: how the gateway and the
/// simulator's control API report every error.
public struct HTTPProblem: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    /// Stable: `urn:sdl-gateway:problem:<code>`.
    public var type: String
    public var title: String
    public var detail: String

    public init(status: HTTPResponse.Status, code: String, title: String, detail: String) {
        self.status = status
        self.type = Self.typePrefix + code
        self.title = title
        self.detail = detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Self.response(status: status, code: String(type.dropFirst(Self.typePrefix.count)), title: title, detail: detail)
    }

    /// The `type` of every problem: `urn:sdl-gateway:problem:` and a stable code.
    public static let typePrefix = "urn:sdl-gateway:problem:"

    /// An `application/problem+json` response (RFC 9457) with `type`, `title`, `status`,
    /// `detail` and any `extra` members (e.g. `resultCode`, `sdlResponse`).
    public static func response(
        status: HTTPResponse.Status, code: String, title: String, detail: String, extra: [String: SDLJSON] = [:], headers: HTTPFields = [:]
    ) -> Response {
        var headers = headers
        headers[.contentType] = "application/problem+json"
        let body = members(status: status, code: code, title: title, detail: detail, extra: extra).serializedBytes()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The problem object: `type`, `title`, `status`, `detail` and any `extra` members.
    public static func members(
        status: HTTPResponse.Status, code: String, title: String, detail: String, extra: [String: SDLJSON] = [:]
    ) -> SDLJSON {
        var members = extra
        members["type"] = .string(typePrefix + code)
        members["title"] = .string(title)
        members["status"] = .int(Int64(status.code))
        members["detail"] = .string(detail)
        return .object(members)
    }
}
