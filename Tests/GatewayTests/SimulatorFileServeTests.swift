import Gateway
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// `serve --simulate`: the files an app uploads through the gateway (chunked PutFile) are served
/// back by the simulator's control API at `/v1/simulator`, behind the gateway's tokens.
@Suite("serve --simulate: the head unit's files at /v1/simulator", .timeLimit(.minutes(1)))
struct SimulatorFileServeTests {
    typealias H = GatewayHarness

    @Test(
        "A file uploaded in 3 chunks through the gateway comes back byte for byte from GET /v1/simulator/apps/{appID}/files/{name}, by the gateway's app id or the SDL appID; a read token reads it, no token or a wrong one is 401"
    )
    func threeChunksServedBack() async throws {
        try await H.withGateway(AuthTests.tokens()) { client, _, _ in
            try await H.createApp(client, headers: AuthTests.bearerController)
            let bytes = ByteBuffer(bytes: (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
            var upload = AuthTests.bearerController
            upload[.contentType] = "application/octet-stream"
            try await client.execute(uri: "/v1/apps/demo/files/art.png?chunkSize=32768", method: .put, headers: upload, body: bytes) {
                response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                #expect(response.json?["chunks"] == 3)
            }
            let tag = "\"\(String(SDLCRC32.checksum(bytes), radix: 16))-\(String(70_000, radix: 16))\""
            for appName in ["demo", "demo-app"] {
                try await client.execute(uri: "/v1/simulator/apps/\(appName)/files/art.png", method: .get, headers: AuthTests.bearerReader)
                { response in
                    #expect(response.status == .ok)
                    #expect(response.body == bytes)
                    #expect(response.headers[.contentType] == "image/png")
                    #expect(response.headers[.contentLength] == "70000")
                    #expect(response.headers[.eTag] == tag)
                    #expect(response.headers[.contentSecurityPolicy] == "sandbox; frame-ancestors 'none'")
                }
            }
            var conditional = AuthTests.bearerReader
            conditional[.ifNoneMatch] = tag
            try await client.execute(uri: "/v1/simulator/apps/demo/files/art.png", method: .get, headers: conditional) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(uri: "/v1/simulator/apps/demo/files/art.png", method: .head, headers: AuthTests.bearerReader) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == "70000")
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/v1/simulator/apps/demo/files", method: .get, headers: AuthTests.bearerReader) { response in
                #expect(
                    response.json == [
                        [
                            "name": "art.png", "size": 70_000, "fileType": "GRAPHIC_PNG", "persistent": false, "systemFile": false,
                            "complete": true,
                        ]
                    ])
            }
            for headers: HTTPFields in [[:], [.authorization: "Bearer not-a-token"]] {
                for uri in ["/v1/simulator/apps/demo/files/art.png", "/v1/simulator/apps/demo/files"] {
                    try await client.execute(uri: uri, method: .get, headers: headers) { response in
                        #expect(response.status == .unauthorized, "\(uri) \(headers)")
                        #expect(response.problemType == "unauthorized")
                        #expect(response.body.readableBytesView.starts(with: bytes.readableBytesView.prefix(16)) == false)
                    }
                }
            }
            try await client.execute(uri: "/v1/simulator/apps/demo/files/none.png", method: .get, headers: AuthTests.bearerReader) {
                response in
                #expect(response.status == .notFound)
                #expect(response.problemType == "file-not-found")
            }
        }
    }
}
