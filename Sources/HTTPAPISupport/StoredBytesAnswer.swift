import Hummingbird
import NIOCore

/// The answer for bytes a route holds or reads (an app's file on the simulated head unit, a file
/// Core named, the gateway's copy of an upload, the embedded page): an `ETag`, `Cache-Control:
/// no-cache`, and 304 when `If-None-Match` names the tag (RFC 9110 §8.8.3, §13.1.2) — one
/// implementation for every route that serves bytes.
public enum StoredBytesAnswer {
    /// Whether an `If-None-Match` value (a list of entity tags, weak ones compared weakly, or `*`)
    /// names `etag`.
    public static func matches(ifNoneMatch header: String?, etag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            // An entity tag holds no space or tab: only the list's are dropped.
            var tag = Substring(candidate.filter { $0 != " " && $0 != "\t" })
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }

    /// 304 when the request's `If-None-Match` names `etag`; else 200 with `contentType`, the
    /// length of `size` and the bytes (none for HEAD). `headers` are added to both (e.g.
    /// `Content-Security-Policy: sandbox` for bytes that came from an app, so they never run
    /// anything in the gateway's origin).
    public static func response(
        _ bytes: ByteBuffer?, size: Int, contentType: String, etag: String, request: Request, headers extra: HTTPFields = [:]
    ) -> Response {
        var headers = extra
        headers[.eTag] = etag
        headers[.cacheControl] = "no-cache"
        if matches(ifNoneMatch: request.headers[.ifNoneMatch], etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        headers[.contentLength] = String(size)
        return Response(
            status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: bytes ?? ByteBuffer()))
    }
}
