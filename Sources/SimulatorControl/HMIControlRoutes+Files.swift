import HTTPAPISupport
import HTTPTypes
import HeadlessHMI
import Hummingbird
import NIOCore

/// `GET`/`HEAD /apps/{appID}/files/{name}`: a file SDL Core named for the app in what it sent the
/// HMI (an image's full path in its storage folder, its icon; ``HMIFileNames``), by the path's last
/// component, the `name` the screen gives each image. Only such paths are read, never one from the
/// request. The bytes come from this machine's disk (``HMIFileReader``): Core's storage folder must
/// be shared with the gateway for a preview to draw them.
///
/// Answers with the type of the name's extension, an `ETag` (`If-None-Match` → 304), and
/// `X-Content-Type-Options: nosniff` with `Content-Security-Policy: sandbox`, so a file an app
/// wrote (an SVG, HTML named .png) never runs as the gateway's page. 404 `file-not-found` when
/// Core never named the file for the app; 404 `file-unreadable` when it did but the file cannot
/// be read here (the detail says why and what to share).
extension HMIControlRoutes {
    func addFiles<Context: RequestContext>(to router: some RouterMethods<Context>) {
        let routes = self
        router.get("apps/:appID/files/:name") { request, context -> Response in
            let appID = try routes.app(context).appID
            let name = try context.parameters.decoded("name")
            let app = try Self.app(appID, routes.connection)
            guard let path = app.files.path(named: name) else {
                throw HTTPProblem(
                    status: .notFound, code: "file-not-found", title: "No such file",
                    detail: "SDL Core has named no file \(name) for app \(appID): the files are those its messages to the HMI name"
                        + " (the `name` of each image of GET /apps/{appID}/screen)"
                )
            }
            let file = try await HMIFileReader.read(path, readBytes: request.method != .head)
            var headers = HTTPFields()
            headers[.xContentTypeOptions] = "nosniff"
            headers[.contentSecurityPolicy] = "sandbox"
            return StoredBytesAnswer.response(
                file.bytes, size: Int(file.size), contentType: HMIFileReader.contentType(ofName: name), etag: file.etag, request: request,
                headers: headers
            )
        }
    }
}
