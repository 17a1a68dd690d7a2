import HTTPAPISupport
import Hummingbird
import NIOCore
import SDLProtocol

/// Serves the built-in page from memory: the files of `Resources/public`, embedded in the code
/// by the EmbedResources build plugin, so the executable needs nothing beside it. `GET` and
/// `HEAD` only; `/` and any `…/` path serve that directory's `index.html` (`/examples/`, the
/// examples' index), and a directory named without its slash is redirected (301) to it. Each
/// answer carries its content type, an `ETag` (the CRC-32 and size of the bytes) and
/// `Cache-Control: no-cache`, so browsers revalidate and get `304 Not Modified` while the file is
/// the same. A path that is no file goes on to the routes (and becomes their 404). `--public DIR`
/// replaces this with Hummingbird's `FileMiddleware` on that directory.
struct EmbeddedFileMiddleware<Context: RequestContext>: RouterMiddleware {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
        var entityTag: String
    }

    /// The files by URL path (`/index.html`, `/app/main.js`).
    let files: [String: File]

    /// - Parameter resources: file bytes by path under `Resources`; those under `prefix` are served.
    init(resources: [String: [UInt8]], prefix: String = "public/") {
        var files: [String: File] = [:]
        for (path, bytes) in resources where path.hasPrefix(prefix) {
            let urlPath = "/" + path.dropFirst(prefix.count)
            let tag = String(SDLCRC32.checksum(bytes), radix: 16) + "-" + String(bytes.count, radix: 16)
            files[urlPath] = File(bytes: ByteBuffer(bytes: bytes), contentType: Self.contentType(of: urlPath), entityTag: "\"\(tag)\"")
        }
        self.files = files
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else { return try await next(request, context) }
        guard let file = file(for: request.uri.path) else {
            // A directory named without its slash (`/examples`): where its index is, as a file server does.
            if let index = directoryIndexRedirect(for: request.uri.path, query: request.uri.query) {
                return Response(status: .movedPermanently, headers: [.location: index])
            }
            return try await next(request, context)
        }
        return StoredBytesAnswer.response(
            file.bytes, size: file.bytes.readableBytes, contentType: file.contentType, etag: file.entityTag, request: request)
    }

    /// The file a URL path names: itself, or the `index.html` of a directory path.
    func file(for path: String) -> File? {
        path.hasSuffix("/") ? files[path + "index.html"] : files[path]
    }

    /// Where a directory path without its trailing slash goes (`/examples` → `/examples/`), when
    /// the directory has an `index.html`; nil for any other path.
    func directoryIndexRedirect(for path: String, query: String?) -> String? {
        guard !path.hasSuffix("/"), files[path + "/index.html"] != nil else { return nil }
        return path + "/" + (query.map { $0.isEmpty ? "" : "?" + $0 } ?? "")
    }

    /// The media type of a file by its extension; unknown ones are bytes.
    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        let suffix = name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
        switch suffix {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json", "map": return "application/json"
        case "yaml", "yml": return "application/yaml"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "ico": return "image/x-icon"
        case "webp": return "image/webp"
        case "woff2": return "font/woff2"
        case "wasm": return "application/wasm"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
