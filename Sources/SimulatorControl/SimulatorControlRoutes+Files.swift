import HTTPAPISupport
import HeadUnitSimulator
import Hummingbird
import NIOCore
import SDLProtocol

/// `GET /apps/{appID}/files` and `GET /apps/{appID}/files/{name}`: the files an app put on the
/// head unit (PutFile, docs/protocol.md §c), listed and served with their bytes, so a page can
/// show the images an app's screen names. HEAD answers as GET without the body.
///
/// A stored file is the app's, not the gateway's: it may be anything. Its `Content-Type` comes
/// from its `FileType` alone, never from its name (an `.svg` name sent as `GRAPHIC_PNG` is
/// `image/png`), so no file is served as HTML, SVG or script; and every file carries
/// `Content-Security-Policy: sandbox` and `X-Content-Type-Options: nosniff`, so even opened on its
/// own it runs no script in the gateway's origin. `Content-Disposition: inline` names it for saving.
extension SimulatorControlRoutes {
    /// The operations of the file routes (part of ``operations``).
    static let fileOperations = [APIOperation("GET", "apps/{appID}/files"), APIOperation("GET", "apps/{appID}/files/{name}")]

    /// The media type of each `FileType` of the spec; `BINARY` and any other is bytes.
    static let mediaTypes = [
        "GRAPHIC_PNG": "image/png", "GRAPHIC_JPEG": "image/jpeg", "GRAPHIC_BMP": "image/bmp",
        "AUDIO_WAVE": "audio/wav", "AUDIO_MP3": "audio/mpeg", "AUDIO_AAC": "audio/aac",
        "JSON": "application/json", "BINARY": "application/octet-stream",
    ]

    func addFileRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        router.get("apps/:appID/files") { _, context -> SDLJSON in
            let named = try context.parameters.decoded("appID")
            return try simulator.perform { unit, _ in
                let app = try Self.control { try unit.requireApp(resolveApp(named, in: unit).appID) }
                return (.array(app.files.sorted { $0.key < $1.key }.map { $0.value.json(name: $0.key) }), [])
            }
        }
        router.get("apps/:appID/files/:name") { request, context -> Response in
            let named = try context.parameters.decoded("appID")
            let name = try context.parameters.decoded("name")
            let file = try simulator.perform { unit, _ in
                let app = try Self.control { try unit.requireApp(resolveApp(named, in: unit).appID) }
                guard let file = app.files[name] else {
                    throw HTTPProblem(
                        status: .notFound, code: "file-not-found", title: "No such file",
                        detail: "the app \(app.appID) has no file \(name) (GET …/apps/\(app.appID)/files lists its files)"
                    )
                }
                return (file, [])
            }
            return try Self.fileResponse(file, name: name, request: request)
        }
    }

    /// The file's bytes, or `304 Not Modified` when `If-None-Match` names its entity tag; `409`
    /// while a chunked upload has not delivered every byte (the bytes so far are no image yet,
    /// and their tag would change under the caller).
    static func fileResponse(_ file: StoredFile, name: String, request: Request) throws -> Response {
        guard file.isComplete else {
            throw HTTPProblem(
                status: .conflict, code: "file-incomplete", title: "The file is still being uploaded",
                detail:
                    "\(name) has \(file.size) of its \(file.declaredLength ?? file.size) bytes: the app's chunked PutFile has not finished; ask again once it has"
            )
        }
        var headers = HTTPFields()
        headers[.contentSecurityPolicy] = "sandbox"
        headers[.contentDisposition] =
            "inline; filename*=UTF-8''" + PercentEncoding.encode(name, keeping: PercentEncoding.attributeCharacters)
        return StoredBytesAnswer.response(
            file.bytes, size: file.size, contentType: mediaTypes[file.fileType] ?? "application/octet-stream", etag: file.entityTag,
            request: request, headers: headers
        )
    }
}
