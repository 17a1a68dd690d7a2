import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

@testable import Gateway

/// `GET /v1/apps/{id}/files/{name}`: the gateway's copy of an image it uploaded (issue 31: the
/// preview draws what the gateway put on a real Core), and ``UploadedImageCopies``' bounds.
@Suite("Files: the gateway's copies of the images it uploaded", .timeLimit(.minutes(1)))
struct UploadedFileCopyTests {
    typealias H = GatewayHarness

    @Test(
        "A PNG uploaded in 3 chunks comes back byte for byte with its type, an ETag and a sandbox; 304; not a BINARY; gone with DeleteFile")
    func copyOfAnUpload() async throws {
        try await H.withGateway { client, _, _ in
            try await H.createApp(client)
            let png = ByteBuffer(
                bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 13) })
            try await client.execute(uri: "/v1/apps/demo/files/cover.png?chunkSize=32768", method: .put, body: png) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                #expect(response.json?["chunks"] == 3)
            }
            let etag = try await client.execute(uri: "/v1/apps/demo/files/cover.png", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.body == png)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("sandbox") == true)
                #expect(response.headers[.cacheControl] == "no-cache")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/v1/apps/demo/files/cover.png", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/v1/apps/demo/files/song.bin", method: .put, body: ByteBuffer(repeating: 1, count: 500)) {
                response in
                #expect(response.status == .created)
            }
            try await client.execute(uri: "/v1/apps/demo/files/song.bin", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.problemType == "not-found")
            }
            try await client.execute(uri: "/v1/apps/demo/files/cover.png", method: .delete) { response in #expect(response.status == .ok) }
            try await client.execute(uri: "/v1/apps/demo/files/cover.png", method: .get) { response in #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/v1/apps/nobody/files/cover.png", method: .get) { response in
                #expect(response.problemType == "app-not-found")
            }
        }
    }

    @Test("Copies: images only, at most 2 MiB each; past the capacity the oldest go; an app's copies go with it")
    func bounds() {
        let copies = UploadedImageCopies(capacity: 1000)
        let key = { (name: String) in UploadedImageCopies.Key(app: "a", incarnation: 1, name: name) }
        #expect(!copies.keeps(fileType: "BINARY", size: 10))
        #expect(!copies.keeps(fileType: "GRAPHIC_PNG", size: 1001))
        #expect(
            UploadedImageCopies().keeps(fileType: "GRAPHIC_JPEG", size: 2 << 20)
                && !UploadedImageCopies().keeps(fileType: "GRAPHIC_JPEG", size: (2 << 20) + 1))
        copies.keep(key("1.png"), bytes: ByteBuffer(repeating: 1, count: 400), fileType: "GRAPHIC_PNG")
        copies.keep(key("2.png"), bytes: ByteBuffer(repeating: 2, count: 400), fileType: "GRAPHIC_PNG")
        copies.keep(key("3.png"), bytes: ByteBuffer(repeating: 3, count: 400), fileType: "GRAPHIC_PNG")
        #expect(copies.copy(key("1.png")) == nil)
        #expect(copies.copy(key("3.png"))?.bytes == ByteBuffer(repeating: 3, count: 400))
        #expect(copies.used == 800)
        copies.keep(key("2.png"), bytes: ByteBuffer(repeating: 9, count: 100), fileType: "GRAPHIC_PNG")
        #expect(copies.used == 500)
        // Another incarnation of the app sees none of the first one's copies.
        #expect(copies.copy(UploadedImageCopies.Key(app: "a", incarnation: 2, name: "3.png")) == nil)
        copies.removeApp("a")
        #expect(copies.used == 0 && copies.copy(key("3.png")) == nil)
    }
}
