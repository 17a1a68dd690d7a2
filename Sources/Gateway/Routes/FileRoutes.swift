import HTTPAPISupport
import Hummingbird
import SDLClient
import SDLProtocol

/// `PUT /v1/apps/{id}/files/{name}` (the raw body streamed into PutFile chunks, holding about one
/// chunk in memory, and a copy of a small image: ``UploadedImageCopies``), `GET /v1/apps/{id}/files`
/// (ListFiles), `GET /v1/apps/{id}/files/{name}` (that copy), `DELETE /v1/apps/{id}/files/{name}`
/// (DeleteFile); docs/protocol.md §c "PutFile with bulk data".
struct FileRoutes: Sendable {
    let apps: GatewayApps
    let limits: GatewayLimits

    /// The `fileType` of a name's extension; BINARY for anything else.
    static func fileType(forName name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "png": return "GRAPHIC_PNG"
        case "jpg", "jpeg": return "GRAPHIC_JPEG"
        case "bmp": return "GRAPHIC_BMP"
        case "wav": return "AUDIO_WAVE"
        case "mp3": return "AUDIO_MP3"
        case "aac": return "AUDIO_AAC"
        case "json": return "JSON"
        default: return "BINARY"
        }
    }

    /// What SDL can hold as a `syncFileName` (MOBILE_API.xml: a string of at most 255
    /// characters; SDL Core answers INVALID_DATA for a path, SDL evolution "Respond INVALID_DATA
    /// to PutFile with a backslash"): 1...255 characters, no `/` or `\`, not `.` or `..`, no
    /// control characters. Refused before anything is sent, as a 422 naming the rule.
    static func checkFileName(_ name: String) throws(GatewayError) {
        var broken: [String] = []
        if !(1...255).contains(name.unicodeScalars.count) { broken.append("a file name has 1...255 characters") }
        if name.contains("/") || name.contains("\\") { broken.append("a file name has no / or \\ (SDL keeps files in one folder)") }
        if name == "." || name == ".." { broken.append("a file name is not . or ..") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            broken.append("a file name has no control characters")
        }
        guard broken.isEmpty else {
            throw GatewayError(
                .invalidParameters, "the file name \"\(name)\" cannot be an SDL syncFileName: \(broken.joined(separator: "; "))",
                issues: broken)
        }
    }

    static let fileTypes: Set<String> = [
        "GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG", "AUDIO_WAVE", "AUDIO_MP3", "AUDIO_AAC", "BINARY", "JSON",
    ]

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.put("v1/apps/:id/files/:name") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let name = try context.parameters.decoded("name")
            let session = try apps.session(id)
            try Self.checkFileName(name)
            let fileType = request.uri.queryParameters.get("fileType") ?? Self.fileType(forName: name)
            guard Self.fileTypes.contains(fileType) else {
                throw GatewayError(.invalidQuery, "fileType must be one of \(Self.fileTypes.sorted().joined(separator: ", "))")
            }
            guard let length = request.headers[.contentLength].flatMap({ Int($0) }) else {
                throw GatewayError(.lengthRequired, "send the file with a Content-Length")
            }
            guard length > 0 else {
                throw GatewayError(.emptyFile, "the body is empty: PutFile sends at least one byte (SDL Core refuses an empty file)")
            }
            guard length <= limits.fileSize else {
                throw GatewayError(.bodyTooLarge, "files are limited to \(limits.fileSize) bytes, this one has \(length)")
            }
            let chunkSize = try Query.int(request, "chunkSize", in: 1024...16 << 20).map { Int($0) } ?? SDLFileUploadPlan.defaultChunkSize
            var chunks = 0
            let response: SDLRPCMessage
            // An image small enough is copied as it streams past (GET answers it later).
            let system = try Query.bool(request, "system", default: false)
            let collector = UploadCollector(keep: !system && apps.uploadedImages.keeps(fileType: fileType, size: length))
            do {
                response = try await session.upload(
                    name: name, fileType: fileType,
                    persistent: try Query.bool(request, "persistent", default: false),
                    system: system,
                    size: length, chunks: request.body.map { collector.add($0) }, chunkSize: chunkSize
                ) { progress in chunks = progress.chunksSent }
            } catch let error as SDLClientError {
                throw GatewayError(error)
            }
            let space = response.parameters["spaceAvailable"]?.intValue
            apps.noteFiles(id, added: name, spaceAvailable: space)
            if !system, let key = apps.uploadedImageKey(id, name: name) {
                if let bytes = collector.collected {
                    apps.uploadedImages.keep(key, bytes: bytes, fileType: fileType)
                } else {
                    apps.uploadedImages.remove(key)  // replaced by a file that is not copied
                }
            }
            var headers = HTTPFields()
            headers[.location] = "/v1/apps/\(id)/files/" + PercentEncoding.encode(name)
            return HTTPBody.response(
                [
                    "name": .string(name), "size": .int(Int64(length)), "chunks": .int(Int64(chunks)),
                    "spaceAvailable": space.map(SDLJSON.int) ?? .null,
                ],
                status: .created, headers: headers
            )
        }
        router.get("v1/apps/:id/files") { _, context -> Response in
            let id = try context.parameters.decoded("id")
            let response = try await fileRequest(id, "ListFiles", [:])
            let names = (response["filenames"]?.arrayValue ?? []).compactMap(\.stringValue)
            let space = response["spaceAvailable"]?.intValue
            apps.noteFiles(id, all: names, spaceAvailable: space)
            return HTTPBody.response(["files": .array(names.map(SDLJSON.string)), "spaceAvailable": space.map(SDLJSON.int) ?? .null])
        }
        router.get("v1/apps/:id/files/:name") { request, context -> Response in
            let id = try context.parameters.decoded("id")
            let name = try context.parameters.decoded("name")
            try Self.checkFileName(name)
            _ = try apps.session(id)
            guard let key = apps.uploadedImageKey(id, name: name), let copy = apps.uploadedImages.copy(key) else {
                throw GatewayError(
                    .notFound,
                    "the gateway keeps no copy of \(name) for \(id): it copies the images (PNG, JPEG, BMP) of at most \(UploadedImageCopies.maximumFileSize) bytes it uploads through PUT /v1/apps/{id}/files/{name}, \(apps.uploadedImages.capacity) bytes in all, the oldest going first; GET /v1/apps/\(id)/files lists what the head unit holds"
                )
            }
            // The bytes came from an app: `sandbox` keeps them from running anything in the gateway's origin.
            return StoredBytesAnswer.response(
                copy.bytes, size: copy.bytes.readableBytes, contentType: ImageStore.fileTypes[copy.fileType] ?? "application/octet-stream",
                etag: copy.etag, request: request, headers: [.contentSecurityPolicy: "sandbox"]
            )
        }
        router.delete("v1/apps/:id/files/:name") { _, context -> Response in
            let id = try context.parameters.decoded("id")
            let name = try context.parameters.decoded("name")
            try Self.checkFileName(name)
            let response = try await fileRequest(id, "DeleteFile", ["syncFileName": .string(name)])
            let space = response["spaceAvailable"]?.intValue
            apps.noteFiles(id, removed: name, spaceAvailable: space)
            if let key = apps.uploadedImageKey(id, name: name) { apps.uploadedImages.remove(key) }
            return HTTPBody.response(["spaceAvailable": space.map(SDLJSON.int) ?? .null])
        }
    }

    private func fileRequest(_ id: String, _ function: String, _ parameters: SDLJSON) async throws(GatewayError) -> SDLJSON {
        do {
            return try await RPCExecutor(apps: apps).send(app: id, function: function, parameters: parameters).response
        } catch  where error.code == .headUnitError {
            var error = error
            error.code = .fileRequestFailed
            throw error
        }
    }
}
