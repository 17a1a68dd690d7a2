import Foundation
import HTTPAPISupport
import HeadUnitSimulator
import HeadlessHMI
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SDLProtocol
import SimulatorControl
import TestSupport
import Testing

/// Issue 31, items 1, 2 and 4: against a fake Core on loopback, Core's UI.Show as 8.2 sends it
/// (showStrings, a graphic whose `value` is the full path of a file) makes the screen a renderer
/// reads, and `GET /apps/{appID}/files/{name}` serves the file's bytes; only a file Core named.
@Suite("Headless HMI screen and files routes", .timeLimit(.minutes(1)))
struct HMIFilesRouteTests {
    static let coreAppID = HMIControlNamesTests.coreAppID

    /// A folder standing in for Core's storage folder, removed after `body`.
    static func withStorage(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmi-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    /// The control API over an HMI connected to a fake Core that registered "radio01" (the naming
    /// tests' fake) and sent `messages`, each answered by the HMI before `body` runs.
    static func withCore(
        sending messages: [HMIMessage], _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await HMIControlNamesTests.withCore { client, fake in
            for message in messages {
                try await fake.send(message)
                guard case .request(let id, _, _) = message else { continue }
                // The HMI has applied a request once it answered it.
                _ = try #require(try await fake.next { if case .response(id, _) = $0 { true } else { false } })
            }
            try await body(client)
        }
    }

    @Test(
        "Core's UI.Show: the screen has mainField1 and the template; the graphic's name serves the file's bytes with its type, an ETag, nosniff and a sandbox"
    )
    func showAndServe() async throws {
        try await Self.withStorage { folder in
            let path = folder.appendingPathComponent("cover.png").path
            let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
            try bytes.write(to: URL(fileURLWithPath: path))
            let show = try CoreHMIMessages.show(
                id: 60, appID: Self.coreAppID, mainField1: "Jazz FM", mainField2: "Live", graphicPath: path, template: "GRAPHIC_WITH_TEXT")
            try await Self.withCore(sending: [show]) { client in
                let screen = try await client.execute(uri: "/apps/radio01/screen", method: .get) { try SDLJSON.parse($0.body) }
                #expect(screen["show"]?["mainField1"] == "Jazz FM")
                #expect(screen["template"] == "GRAPHIC_WITH_TEXT")
                #expect(screen["appName"] == "Radio" && screen["hmiLevel"] == "NONE")
                let name = try #require(screen["show"]?["graphic"]?["name"]?.stringValue)
                #expect(name == "cover.png")

                let etag = try await client.execute(uri: "/apps/radio01/files/\(name)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(Array(response.body.readableBytesView) == Array(bytes))
                    #expect(response.headers[.contentType] == "image/png")
                    #expect(response.headers[.contentLength] == String(bytes.count))
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                    #expect(response.headers[.contentSecurityPolicy]?.hasPrefix("sandbox") == true)
                    return try #require(response.headers[.eTag])
                }
                try await client.execute(
                    uri: "/apps/\(Self.coreAppID)/files/\(name)", method: .get, headers: [.ifNoneMatch: "\"other\", \(etag)"]
                ) { response in
                    #expect(response.status == .notModified)
                    #expect(response.body.readableBytes == 0)
                }
                try await client.execute(uri: "/apps/radio01/files/\(name)", method: .head) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentLength] == String(bytes.count))
                    #expect(response.body.readableBytes == 0)
                }
                // Written again, the file has another ETag.
                try Data([1, 2]).write(to: URL(fileURLWithPath: path))
                try await client.execute(uri: "/apps/radio01/files/\(name)", method: .get, headers: [.ifNoneMatch: etag]) { response in
                    #expect(response.status == .ok && response.body.readableBytes == 2)
                }
            }
        }
    }

    @Test(
        "A file Core never named is 404 file-not-found, even one that exists; a named but unreadable one is 404 file-unreadable saying to share Core's storage folder"
    )
    func refusals() async throws {
        try await Self.withStorage { folder in
            let present = folder.appendingPathComponent("present.png").path
            try Data([1]).write(to: URL(fileURLWithPath: present))
            let missing = folder.appendingPathComponent("missing.png").path
            let show = HMIMessage.request(
                id: 61, method: "UI.Show",
                params: [
                    "appID": .int(Self.coreAppID), "graphic": ["imageType": "DYNAMIC", "value": .string(missing)],
                    // An app's `..` in an image name reaches the HMI as written: never served.
                    "secondaryGraphic": ["imageType": "DYNAMIC", "value": .string(folder.path + "/x/../present.png")],
                ])
            try await Self.withCore(sending: [show]) { client in
                for name in ["present.png", "passwd"] {
                    try await client.execute(uri: "/apps/radio01/files/\(name)", method: .get) { response in
                        #expect(response.status == .notFound, "\(name)")
                        #expect(response.problemCode == "file-not-found", "\(name)")
                    }
                }
                try await client.execute(uri: "/apps/radio01/files/missing.png", method: .get) { response in
                    #expect(response.status == .notFound)
                    #expect(response.problemCode == "file-unreadable")
                    let detail = (try? SDLJSON.parse(response.body))?["detail"]?.stringValue ?? ""
                    #expect(detail.contains(missing) && detail.contains("storage folder") && detail.contains("shared"))
                }
                try await client.execute(uri: "/apps/nobody/files/missing.png", method: .get) { response in
                    #expect(response.status == .notFound && response.problemCode == "app-not-found")
                }
            }
        }
    }
}

extension TestResponse {
    /// The `code` of a problem+json answer (its `type` after `urn:sdl-gateway:problem:`).
    var problemCode: String? {
        (try? SDLJSON.parse(body))?["type"]?.stringValue.map { String($0.dropFirst("urn:sdl-gateway:problem:".count)) }
    }
}
