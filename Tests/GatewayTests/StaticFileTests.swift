import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import Gateway

/// The page, its files and `openapi.yaml` are embedded in the code (the EmbedResources plugin)
/// and served from memory with content types, ETags and revalidation; `--public` replaces them.
@Suite("Static files: the embedded page and openapi.yaml", .timeLimit(.minutes(1)))
struct StaticFileTests {
    typealias H = GatewayHarness

    /// `Sources/Gateway/Resources` of this repository.
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Sources/Gateway/Resources")

    /// Every regular file under `Resources/public` (a link to the top-level `public/`), by its URL path.
    static func publicFiles() throws -> [String: Data] {
        let root = resources.appendingPathComponent("public").resolvingSymlinksInPath()
        var files: [String: Data] = [:]
        let enumerator = try #require(
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]))
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            files[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test("Every file of Resources/public is embedded with its bytes, and openapi.yaml too")
    func table() throws {
        let files = try Self.publicFiles()
        #expect(files["/index.html"] != nil)
        let middleware = EmbeddedFileMiddleware<GatewayRequestContext>(resources: EmbeddedResources.files)
        #expect(Set(middleware.files.keys) == Set(files.keys))
        for (path, data) in files {
            #expect(middleware.files[path].map { Data($0.bytes.readableBytesView) } == data, "\(path)")
        }
        #expect(
            EmbeddedResources.bytes("openapi.yaml").map { Data($0) }
                == (try Data(contentsOf: Self.resources.appendingPathComponent("openapi.yaml"))))
    }

    @Test("Content types by extension; the ETag is the same for the same bytes and differs for others")
    func headers() {
        #expect(EmbeddedFileMiddleware<GatewayRequestContext>.contentType(of: "/index.html") == "text/html; charset=utf-8")
        #expect(EmbeddedFileMiddleware<GatewayRequestContext>.contentType(of: "/app/sdl-gateway.js") == "text/javascript; charset=utf-8")
        #expect(EmbeddedFileMiddleware<GatewayRequestContext>.contentType(of: "/style.CSS") == "text/css; charset=utf-8")
        #expect(EmbeddedFileMiddleware<GatewayRequestContext>.contentType(of: "/icon.png") == "image/png")
        #expect(EmbeddedFileMiddleware<GatewayRequestContext>.contentType(of: "/LICENSE") == "application/octet-stream")
        let one = EmbeddedFileMiddleware<GatewayRequestContext>(resources: [
            "public/a.txt": Array("one".utf8), "public/b.txt": Array("one".utf8), "public/c.txt": Array("two".utf8), "other.txt": [1],
        ])
        #expect(one.files["/a.txt"]?.entityTag == one.files["/b.txt"]?.entityTag)
        #expect(one.files["/a.txt"]?.entityTag != one.files["/c.txt"]?.entityTag)
        #expect(one.files["/other.txt"] == nil)
    }

    @Test(
        "GET / and /index.html serve the page; If-None-Match revalidates (304); HEAD has the length and no body; an unknown file is a 404 problem"
    )
    func serving() async throws {
        let page = try #require(try Self.publicFiles()["/index.html"])
        try await H.withGateway { client, _, _ in
            var tag = ""
            for path in ["/", "/index.html"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                    #expect(response.headers[.cacheControl] == "no-cache")
                    #expect(Data(response.body.readableBytesView) == page)
                    tag = response.headers[.eTag] ?? ""
                }
            }
            #expect(tag.hasPrefix("\""))
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: "\"other\", \(tag)"]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: "\"other\""]) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/index.html", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == String(page.count))
                #expect(response.body.readableBytes == 0)
            }
            let document = try Data(contentsOf: Self.resources.appendingPathComponent("openapi.yaml"))
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(Data(response.body.readableBytesView) == document)
            }
            try await client.execute(uri: "/nope.js", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.problemType == "not-found")
            }
        }
    }

    @Test("The icon: /favicon.ico (what browsers ask for) and /favicon.svg, with their types; every HTML page links it")
    func icon() async throws {
        let files = try Self.publicFiles()
        let ico = try #require(files["/favicon.ico"])
        let svg = try #require(files["/favicon.svg"])
        // An ICO header (reserved 0, type 1) holding PNG images.
        #expect(Array(ico.prefix(4)) == [0, 0, 1, 0])
        #expect(ico.range(of: Data([0x89, 0x50, 0x4E, 0x47])) != nil)
        #expect(String(decoding: svg, as: UTF8.self).hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let pages = files.filter { $0.key.hasSuffix(".html") }
        #expect(pages.count >= 3)
        for (path, page) in pages {
            let text = String(decoding: page, as: UTF8.self)
            let depth = path.split(separator: "/").count - 1
            let href = String(repeating: "../", count: depth) + "favicon.svg"
            #expect(text.contains("<link rel=\"icon\" href=\"\(href)\" type=\"image/svg+xml\">"), "\(path) links no icon at \(href)")
        }
        try await H.withGateway { client, _, _ in
            for (path, type, bytes) in [("/favicon.ico", "image/x-icon", ico), ("/favicon.svg", "image/svg+xml", svg)] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == type)
                    #expect(response.headers[.cacheControl] == "no-cache")
                    #expect(response.headers[.eTag] != nil)
                    #expect(Data(response.body.readableBytesView) == bytes)
                }
            }
        }
    }

    @Test("/examples/ is the examples' index, linking each example; /examples redirects to it")
    func examplesIndex() async throws {
        let files = try Self.publicFiles()
        let index = try #require(files["/examples/index.html"])
        let examples = files.keys.filter { $0.hasPrefix("/examples/") && $0.hasSuffix(".html") && $0 != "/examples/index.html" }
        #expect(!examples.isEmpty)
        for example in examples {
            let name = String(example.dropFirst("/examples/".count))
            #expect(String(decoding: index, as: UTF8.self).contains("href=\"\(name)\""), "the index does not link \(name)")
        }
        try await H.withGateway { client, _, _ in
            try await client.execute(uri: "/examples/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(Data(response.body.readableBytesView) == index)
            }
            try await client.execute(uri: "/examples", method: .get) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/examples/")
            }
            try await client.execute(uri: "/examples?x=1", method: .head) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/examples/?x=1")
            }
            try await client.execute(uri: "/app", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("--public DIR serves that directory instead of the embedded page")
    func publicDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("public-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("<p>my own page</p>".utf8).write(to: directory.appendingPathComponent("index.html"))
        var configuration = GatewayConfiguration()
        configuration.publicDirectory = directory.path
        try await H.withGateway(configuration) { client, _, _ in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(String(buffer: response.body) == "<p>my own page</p>")
            }
            try await client.execute(uri: "/openapi.yaml", method: .get) { response in
                #expect(String(buffer: response.body).hasPrefix("openapi: 3.1"))
            }
        }
    }
}
