import HTTPAPISupport
import HTTPTypes
import Hummingbird
import NIOCore
import SDLProtocol

/// `PUT`/`GET`/`DELETE /v1/images/{name}` and `GET /v1/images`: the gateway's image store
/// (``ImageStore``). A declared screen, menu, interaction or alert may name an image from here;
/// the gateway uploads it (PutFile) to an app's head unit when that head unit lacks it.
struct ImageRoutes: Sendable {
    let images: ImageStore
    let limits: GatewayLimits

    func add(to router: some RouterMethods<GatewayRequestContext>) {
        router.put("v1/images/:name") { request, context -> Response in
            let name = try context.parameters.decoded("name")
            try FileRoutes.checkFileName(name)
            let fileType = request.uri.queryParameters.get("fileType") ?? FileRoutes.fileType(forName: name)
            guard ImageStore.fileTypes[fileType] != nil else {
                throw GatewayError(
                    .invalidQuery,
                    "an image is \(ImageStore.fileTypes.keys.sorted().joined(separator: ", ")) (by its name's extension or ?fileType=); \(name) would be \(fileType)"
                )
            }
            let limit = min(limits.fileSize, images.capacity)
            let bytes: ByteBuffer
            do {
                bytes = try await request.body.collect(upTo: limit)
            } catch {
                throw GatewayError(.bodyTooLarge, "an image has at most \(limit) bytes (limits.fileSize, limits.imageStoreSize)")
            }
            guard bytes.readableBytes > 0 else { throw GatewayError(.emptyFile, "the body is empty: an image has at least one byte") }
            let replaced = try images.put(name, ImageStore.Image(bytes: bytes, fileType: fileType))
            var headers = HTTPFields()
            headers[.location] = "/v1/images/" + PercentEncoding.encode(name)
            return HTTPBody.response(
                Self.entry(name, fileType: fileType, size: bytes.readableBytes), status: replaced ? .ok : .created, headers: headers)
        }
        router.get("v1/images") { _, _ -> Response in
            let (list, used) = images.list
            return HTTPBody.response([
                "images": .array(list.map { Self.entry($0.name, fileType: $0.fileType, size: $0.size) }),
                "bytes": .int(Int64(used)), "capacity": .int(Int64(images.capacity)),
            ])
        }
        router.get("v1/images/:name") { _, context -> Response in
            let name = try context.parameters.decoded("name")
            guard let image = images.image(name) else { throw GatewayError(.notFound, "no image \(name) in the image store") }
            var headers = HTTPFields()
            headers[.contentType] = ImageStore.fileTypes[image.fileType] ?? "application/octet-stream"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: image.bytes))
        }
        router.delete("v1/images/:name") { _, context -> Response in
            let name = try context.parameters.decoded("name")
            guard images.remove(name) else { throw GatewayError(.notFound, "no image \(name) in the image store") }
            return Response(status: .noContent)
        }
    }

    static func entry(_ name: String, fileType: String, size: Int) -> SDLJSON {
        ["name": .string(name), "fileType": .string(fileType), "size": .int(Int64(size))]
    }
}
