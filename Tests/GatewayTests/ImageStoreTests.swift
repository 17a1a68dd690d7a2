@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// `/v1/images`: the gateway's image store, and the managers uploading from it what a head unit
/// lacks (also after a restart lost it).
@Suite("Image store", .timeLimit(.minutes(1)))
struct ImageStoreTests {
    typealias H = GatewayHarness

    static let png = ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: UInt8(7), count: 100))

    static func put(
        _ client: any TestClientProtocol, _ name: String, _ bytes: ByteBuffer = png
    ) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: "/v1/images/\(name)", method: .put, body: bytes) { ($0.status, $0.json) }
    }

    @Test("Put, replace, list, read and delete images; only graphics; the store's bytes are bounded")
    func crud() async throws {
        var configuration = GatewayConfiguration()
        configuration.limits.imageStoreSize = 250
        try await H.withGateway(configuration) { client, _, _ in
            #expect(try await Self.put(client, "play.png").0 == .created)
            #expect(try await Self.put(client, "play.png").0 == .ok)
            #expect(try await Self.put(client, "notes.txt").0 == .badRequest)
            try await client.execute(uri: "/v1/images", method: .get) { response in
                #expect(
                    response.json == [
                        "images": [["name": "play.png", "fileType": "GRAPHIC_PNG", "size": 108]], "bytes": 108, "capacity": 250,
                    ])
            }
            try await client.execute(uri: "/v1/images/play.png", method: .get) { response in
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.body == Self.png)
            }
            #expect(try await Self.put(client, "pause.png").0 == .created)
            let (full, problem) = try await Self.put(client, "stop.png")
            #expect(full.code == 507)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:insufficient-storage")
            try await client.execute(uri: "/v1/images/pause.png", method: .delete) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/v1/images/pause.png", method: .delete) { #expect($0.status == .notFound) }
            #expect(try await Self.put(client, "stop.png").0 == .created)
        }
    }

    @Test("A declared screen naming a store image uploads it first (PutFile, then Show), once; unknown images are 422s")
    func screenUploads() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, appID: "demo-app")
            _ = try await Self.put(client, "art.png")
            let (status, body) = try await ScreenRoutesTests.put(client, ["textFields": ["Hello"], "primaryGraphic": "art.png"])
            #expect(status == .ok, "\(String(describing: body))")
            #expect(body?["sent"]?.arrayValue?.map { $0["function"] } == ["PutFile", "Show"])
            #expect(simulator.snapshot.app(withID: "demo-app")?.files["art.png"]?.size == 108)
            let (_, again) = try await ScreenRoutesTests.put(client, ["textFields": ["Hello again"], "primaryGraphic": "art.png"])
            #expect(again?["sent"]?.arrayValue?.map { $0["function"] } == ["Show"])
            let (unknown, problem) = try await ScreenRoutesTests.put(client, ["textFields": ["Hi"], "primaryGraphic": "nowhere.png"])
            #expect(unknown == .unprocessableContent)
            #expect(problem?["detail"]?.stringValue?.contains("image store") == true)
        }
    }

    @Test("After a restart that lost the head unit's files, the restore uploads the store's image again before the Show")
    func restoreUploads() async throws {
        try await H.withGateway { client, simulator, apps in
            try await H.createApp(client, appID: "demo-app")
            _ = try await Self.put(client, "art.png")
            _ = try await ScreenRoutesTests.put(client, ["textFields": ["Hello"], "primaryGraphic": "art.png"])
            let events = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["connection"]))
            defer { events.cancel() }
            try await client.execute(
                uri: "/v1/simulator/restart", method: .post, headers: H.jsonHeaders, body: H.json(["keepResumptionData": false])
            ) { response in
                #expect(response.status == .ok)
            }
            while let event = await events.queue.next(), event.data["state"] != "restored" && event.data["state"] != "restoreFailed" {}
            let app = simulator.snapshot.app(withID: "demo-app")
            #expect(app?.files["art.png"] != nil)
            #expect(app?.screen.json["show"]?["graphic"]?["value"] == "art.png")
            let putFiles = simulator.snapshot.log.entries.filter { $0.function == "PutFile" && $0.direction == .fromApp }.count
            #expect(putFiles == 2)
        }
    }
}
