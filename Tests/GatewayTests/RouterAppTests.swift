import Gateway
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SDLProtocol
import Testing

@Suite("HTTP API: apps, RPCs, batch, vehicle data, subscriptions, files, spec", .timeLimit(.minutes(1)))
struct RouterAppTests {
    typealias H = GatewayHarness

    @Test("Create an app (defaults filled in, 201 + Location), list, get, delete; 404 after")
    func appLifecycle() async throws {
        try await H.withGateway { client, simulator, _ in
            let app = try await H.createApp(client)
            #expect(app["id"] == "demo")
            #expect(app["connection"] == "registered")
            // The summary, without the capabilities (they made the answer ~24 KB), with links to them.
            #expect(
                app["registration"] == nil && app["permissions"] == nil && app["systemCapabilities"] == nil && app["capabilities"] == nil)
            #expect(app["links"]?["capabilities"] == "/v1/apps/demo/capabilities")
            #expect(app.serializedBytes().count < 2048, "the app's summary is \(app.serializedBytes().count) bytes")
            try await client.execute(uri: "/v1/apps/demo/capabilities", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json?["registration"]?["resultCode"] == "SUCCESS")
                #expect(response.json?["systemCapabilities"]?.objectValue != nil)
                #expect(response.json?.objectValue?.keys.sorted() == ["permissions", "registration", "systemCapabilities"])
            }
            try await client.execute(uri: "/v1/apps/demo?expand=capabilities", method: .get) { response in
                #expect(response.json?["capabilities"]?["registration"]?["resultCode"] == "SUCCESS")
                #expect(response.json?["hmiLevel"] != nil)
            }
            try await client.execute(uri: "/v1/apps/demo?expand=everything", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.problemType == "invalid-query")
            }
            #expect(app["core"]?.stringValue?.hasPrefix("tcp://127.0.0.1:") == true)
            let registered = try #require(simulator.snapshot.app(withID: "demo-app"))
            #expect(registered.registration["languageDesired"] == "EN-US")
            #expect(registered.registration["isMediaApplication"] == false)
            try await client.execute(uri: "/v1/apps", method: .get) { response in
                #expect(response.json?["apps"]?.arrayValue?.count == 1)
            }
            try await client.execute(uri: "/v1/apps/demo", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json?["appID"] == "demo-app")
            }
            try await client.execute(uri: "/v1/apps/demo", method: .delete) { response in #expect(response.status == .noContent) }
            try await client.execute(uri: "/v1/apps/demo", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.problemType == "app-not-found")
            }
            #expect(simulator.snapshot.app(withID: "demo-app") == nil)
        }
    }

    @Test(
        "An app on ws:// (SDL Core's WebEngine WebSocket transport) registers and answers RPCs; a bad core URL is 400, one not allowed 403")
    func webSocketCore() async throws {
        try await H.withGateway { client, simulator, _ in
            let port = try #require(H.webSocketPort)
            let body: SDLJSON = ["id": "web", "appName": "Web", "appID": "web-app", "core": .string("ws://127.0.0.1:\(port)")]
            try await client.execute(uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: H.json(body)) { response in
                #expect(response.status == .created)
                #expect(response.json?["core"] == .string("ws://127.0.0.1:\(port)/"))
                #expect(response.json?["connection"] == "registered")
            }
            try await client.execute(
                uri: "/v1/apps/web/rpc/Show", method: .post, headers: H.jsonHeaders, body: H.json(["mainField1": "over ws"])
            ) { response in
                #expect(response.status == .ok)
            }
            #expect(simulator.snapshot.app(withID: "web-app")?.screen.show["mainField1"] == "over ws")
            try await client.execute(
                uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: H.json(["appName": "X", "appID": "x", "core": "http://nope"])
            ) { response in
                #expect(response.status == .badRequest)
            }
            // Only head units the operator named: never where a client asks.
            try await client.execute(
                uri: "/v1/apps", method: .post, headers: H.jsonHeaders,
                body: H.json(["appName": "X", "appID": "x", "core": "tcp://10.1.2.3:12345"])
            ) { response in
                #expect(response.status == .forbidden)
                #expect(response.problemType == "core-not-allowed")
            }
        }
    }

    @Test("Create refuses bad bodies (400), duplicate ids and app ids (409) and what the spec forbids (422)")
    func createErrors() async throws {
        try await H.withGateway { client, _, _ in
            let cases: [(SDLJSON, Int, String)] = [
                (["appName": "No id"], 400, "invalid-body"),
                (["appName": "X", "appID": "x", "typo": true], 400, "invalid-body"),
                (["appName": "X", "appID": "x", "id": "has space"], 400, "invalid-body"),
                (["appName": "X", "appID": "x", "languageDesired": "KLINGON"], 422, "invalid-parameters"),
                (["appName": "\t", "appID": "x"], 422, "invalid-parameters"),
            ]
            for (body, status, type) in cases {
                try await client.execute(uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: H.json(body)) { response in
                    #expect(response.status.code == status, "\(body)")
                    #expect(response.problemType == type, "\(body)")
                }
            }
            try await client.execute(uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: ByteBuffer(string: "{not json")) {
                response in
                #expect(response.status == .badRequest)
            }
            try await H.createApp(client, id: "one", appID: "same-app")
            try await client.execute(
                uri: "/v1/apps", method: .post, headers: H.jsonHeaders,
                body: H.json(["id": "two", "appName": "Other", "appID": "same-app"])
            ) { response in
                #expect(response.status == .conflict)
                #expect(response.problemType == "app-exists")
            }
        }
    }

    @Test("At most maximumApps apps: one more is 503 too-many-apps by POST and by PUT; a duplicate id is still 409; a delete makes room")
    func maximumApps() async throws {
        var configuration = GatewayConfiguration()
        configuration.sessions.maximumApps = 2
        try await H.withGateway(configuration) { client, _, _ in
            try await H.createApp(client, id: "one")
            try await H.createApp(client, id: "two")
            try await client.execute(
                uri: "/v1/apps", method: .post, headers: H.jsonHeaders,
                body: H.json(["id": "three", "appName": "Three", "appID": "three-app"])
            ) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.problemType == "too-many-apps")
            }
            try await client.execute(
                uri: "/v1/apps/three", method: .put, headers: H.jsonHeaders, body: H.json(["appName": "Three", "appID": "three-app"])
            ) { response in
                #expect(response.status == .serviceUnavailable, "\(String(buffer: response.body))")
                #expect(response.problemType == "too-many-apps")
            }
            try await client.execute(
                uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: H.json(["id": "one", "appName": "One", "appID": "other-app"])
            ) { response in
                #expect(response.status == .conflict)
            }
            try await client.execute(uri: "/v1/apps/two", method: .delete) { #expect($0.status == .noContent) }
            try await H.createApp(client, id: "three")
        }
    }

    @Test("RPC by name: 200 with the response, correlation id and Server-Timing; errors as problems")
    func rpc() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client)
            try await client.execute(
                uri: "/v1/apps/demo/rpc/Show", method: .post, headers: H.jsonHeaders, body: H.json(["mainField1": "Hello"])
            ) { response in
                #expect(response.status == .ok)
                #expect(response.json?["resultCode"] == "SUCCESS")
                #expect(Int(response.headers[.init("SDL-Correlation-ID")!] ?? "") != nil)
                #expect(response.headers[.init("Server-Timing")!]?.contains("headunit;dur=") == true)
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.screen.show["mainField1"] == "Hello")
            let cases: [(String, SDLJSON?, Int, String)] = [
                ("/v1/apps/demo/rpc/NoSuchFunction", [:], 404, "unknown-function"),
                ("/v1/apps/demo/rpc/Show", ["mainField1": 123], 422, "invalid-parameters"),
                ("/v1/apps/demo/rpc/Show", [1, 2], 400, "invalid-body"),
                ("/v1/apps/nobody/rpc/Show", [:], 404, "app-not-found"),
                ("/v1/apps/demo/rpc/Show?timeout=0", [:], 400, "invalid-query"),
                ("/v1/apps/demo/rpc/Show?timout=5000", [:], 400, "invalid-query"),
                ("/v1/apps/demo/rpc/Show?timeout=60000&checkPermissions=false&=null", [:], 400, "invalid-query"),
                ("/v1/apps/demo/rpc/AddCommand", ["cmdID": 1, "menuParams": ["menuName": "A"]], 200, ""),
                ("/v1/apps/demo/rpc/AddCommand", ["cmdID": 1, "menuParams": ["menuName": "B"]], 422, "head-unit-error"),
            ]
            for (uri, body, status, type) in cases {
                try await client.execute(uri: uri, method: .post, headers: H.jsonHeaders, body: body.map(H.json)) { response in
                    #expect(response.status.code == status, "\(uri) \(String(buffer: response.body))")
                    if status != 200 { #expect(response.problemType == type, "\(uri)") }
                    if type == "head-unit-error" {
                        #expect(response.json?["resultCode"] == "INVALID_ID")
                        #expect(response.json?["sdlResponse"]?["success"] == false)
                    }
                }
            }
            // An unknown query parameter is named, with the ones the operation takes.
            try await client.execute(uri: "/v1/apps/demo/rpc/Show?timout=5000", method: .post) { response in
                #expect(
                    response.json?["detail"]
                        == "unknown query parameter \"timout\" (did you mean timeout?): POST /v1/apps/{id}/rpc/{function} takes checkPermissions, timeout, validate"
                )
            }
            try await client.execute(uri: "/v1/images?x=1", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.json?["detail"] == "unknown query parameter \"x\": GET /v1/images takes none")
            }
            try await client.execute(uri: "/v1/simulator/log?limit=1&x=1", method: .get) { response in
                #expect(response.problemType == "invalid-query")
            }
            // Without validation the head unit itself answers INVALID_DATA.
            try await client.execute(
                uri: "/v1/apps/demo/rpc/Show?validate=false", method: .post, headers: H.jsonHeaders, body: H.json(["mainField1": 123])
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(response.json?["resultCode"] == "INVALID_DATA")
            }
        }
    }

    @Test("DISALLOWED under SDL Core's default policy is 403 with the head unit's answer; preflight refuses locally")
    func disallowed() async throws {
        try await H.withGateway(policy: .sdlDefault) { client, _, _ in
            try await H.createApp(client)
            try await client.execute(uri: "/v1/apps/demo/vehicle-data?names=speed", method: .get) { response in
                #expect(response.status == .forbidden)
                #expect(["not-permitted", "head-unit-error"].contains(response.problemType ?? ""))
            }
            try await client.execute(
                uri: "/v1/apps/demo/rpc/GetVehicleData?checkPermissions=false", method: .post, headers: H.jsonHeaders,
                body: H.json(["speed": true])
            ) { response in
                #expect(response.status == .forbidden)
                #expect(response.json?["resultCode"] == "DISALLOWED")
            }
        }
    }

    @Test("Batch: sequential stops at the first failure (the rest skipped) or continues; concurrent answers every item")
    func batch() async throws {
        try await H.withGateway { client, _, _ in
            try await H.createApp(client)
            let requests: SDLJSON = [
                ["function": "Show", "params": ["mainField1": "1"]],
                ["function": "Show", "params": ["mainField1": 2]],
                ["function": "ListFiles"],
            ]
            try await client.execute(
                uri: "/v1/apps/demo/batch", method: .post, headers: H.jsonHeaders, body: H.json(["requests": requests])
            ) { response in
                let results = try #require(response.json?["results"]?.arrayValue)
                #expect(results.map { $0["status"] } == [200, 422, 424])
                #expect(results[2]["skipped"] == true)
                #expect(results[1]["problem"]?["type"] == "urn:sdl-gateway:problem:invalid-parameters")
            }
            try await client.execute(
                uri: "/v1/apps/demo/batch", method: .post, headers: H.jsonHeaders,
                body: H.json(["requests": requests, "stopOnError": false])
            ) { response in
                #expect(response.json?["results"]?.arrayValue?.map { $0["status"] } == [200, 422, 200])
            }
            try await client.execute(
                uri: "/v1/apps/demo/batch", method: .post, headers: H.jsonHeaders,
                body: H.json(["requests": requests, "mode": "concurrent"])
            ) { response in
                #expect(response.json?["results"]?.arrayValue?.map { $0["function"] } == ["Show", "Show", "ListFiles"])
                #expect(response.json?["results"]?.arrayValue?.map { $0["status"] } == [200, 422, 200])
            }
            try await client.execute(uri: "/v1/apps/demo/batch", method: .post, headers: H.jsonHeaders, body: H.json(["requests": []])) {
                response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("Vehicle data: get, subscribe (per-item results), unsubscribe; buttons; the app resource lists them")
    func subscriptions() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client)
            try await client.execute(uri: "/v1/apps/demo/vehicle-data?names=speed,rpm", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json?["rpm"]?.intValue != nil)
            }
            try await client.execute(uri: "/v1/apps/demo/vehicle-data", method: .get) { response in #expect(response.status == .badRequest)
            }
            try await client.execute(
                uri: "/v1/apps/demo/subscriptions/vehicle-data", method: .put, headers: H.jsonHeaders,
                body: H.json(["names": ["speed", "rpm"]])
            ) { response in
                #expect(response.status == .ok)
                #expect(response.json?["speed"]?["resultCode"] == "SUCCESS")
            }
            try await client.execute(uri: "/v1/apps/demo/subscriptions/buttons/OK", method: .put) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/apps/demo/subscriptions/buttons/NOT_A_BUTTON", method: .put) { response in
                #expect(response.status == .unprocessableContent)
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.vehicleDataSubscriptions == ["rpm", "speed"])
            try await client.execute(uri: "/v1/apps/demo", method: .get) { response in
                #expect(response.json?["subscriptions"] == ["buttons": ["OK"], "vehicleData": ["rpm", "speed"]])
            }
            try await client.execute(uri: "/v1/apps/demo/subscriptions/vehicle-data?names=rpm", method: .delete) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/apps/demo/subscriptions/buttons/OK", method: .delete) { response in
                #expect(response.status == .ok)
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.vehicleDataSubscriptions == ["speed"])
            #expect(simulator.snapshot.app(withID: "demo-app")?.buttonSubscriptions == [])
        }
    }

    @Test("Subscriptions are shared by owners: the second owner costs no SDL request, the Unsubscribe waits for the last")
    func sharedSubscriptions() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client)
            let speed = H.json(["names": ["speed"]])
            try await client.execute(
                uri: "/v1/apps/demo/subscriptions/vehicle-data?owner=dashboard", method: .put, headers: H.jsonHeaders, body: speed
            ) { response in
                #expect(response.json?["sent"] == ["speed"])
                #expect(response.headers[.init("SDL-Correlation-ID")!] != nil)
            }
            try await client.execute(
                uri: "/v1/apps/demo/subscriptions/vehicle-data?owner=script", method: .put, headers: H.jsonHeaders, body: speed
            ) { response in
                #expect(response.status == .ok)
                #expect(response.json?["sent"] == [])
            }
            try await client.execute(uri: "/v1/apps/demo/subscriptions/vehicle-data?owner=dashboard&names=speed", method: .delete) {
                response in
                #expect(response.json?["sent"] == [])
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.vehicleDataSubscriptions == ["speed"])
            try await client.execute(uri: "/v1/apps/demo/subscriptions/vehicle-data?owner=script&names=speed", method: .delete) {
                response in
                #expect(response.json?["sent"] == ["speed"])
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.vehicleDataSubscriptions == [])
            let requests = simulator.snapshot.log.entries.filter { $0.json["rpcType"] == "request" }.compactMap {
                $0.json["function"]?.stringValue
            }
            #expect(requests.filter { $0.hasSuffix("VehicleData") } == ["SubscribeVehicleData", "UnsubscribeVehicleData"])
        }
    }

    @Test("Files: a raw body streamed into PutFile chunks, listed, deleted; limits and errors")
    func files() async throws {
        try await H.withGateway(GatewayConfiguration(limits: GatewayLimits(fileSize: 100_000))) { client, simulator, _ in
            try await H.createApp(client)
            let data = ByteBuffer(bytes: (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
            try await client.execute(
                uri: "/v1/apps/demo/files/song.bin?chunkSize=32768&persistent=true", method: .put, headers: H.jsonHeaders, body: data
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                #expect(response.json?["chunks"] == 3)
                #expect(response.json?["size"] == 70_000)
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.files["song.bin"]?.size == 70_000)
            #expect(simulator.snapshot.app(withID: "demo-app")?.files["song.bin"]?.isPersistent == true)
            try await client.execute(uri: "/v1/apps/demo/files", method: .get) { response in
                #expect(response.json?["files"] == ["song.bin"])
            }
            try await client.execute(
                uri: "/v1/apps/demo/files/big.bin", method: .put, headers: H.jsonHeaders, body: ByteBuffer(repeating: 0, count: 100_001)
            ) { response in
                #expect(response.status == .contentTooLarge)
            }
            try await client.execute(
                uri: "/v1/apps/demo/files/x.bin?fileType=EXE", method: .put, headers: H.jsonHeaders, body: ByteBuffer(string: "x")
            ) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/v1/apps/demo/files/song.bin", method: .delete) { response in #expect(response.status == .ok) }
            try await client.execute(uri: "/v1/apps/demo/files/song.bin", method: .delete) { response in
                #expect(response.problemType == "file-request-failed")
                #expect(response.status.code >= 400)
            }
        }
    }

    @Test("Spec: the catalog and a template per request that validates")
    func spec() async throws {
        try await H.withGateway { client, _, _ in
            try await client.execute(uri: "/v1/spec", method: .get) { response in
                #expect(response.json?["version"] == "8.0.0")
                #expect((response.json?["functions"]?.arrayValue?.count ?? 0) > 100)
            }
            try await client.execute(uri: "/v1/spec/functions/Show", method: .get) { response in
                #expect(response.json?["functionID"] == 13)
                #expect(response.json?["parameters"]?.arrayValue?.contains { $0["name"] == "mainField1" } == true)
            }
            try await client.execute(uri: "/v1/spec/functions/Nope", method: .get) { response in #expect(response.status == .notFound) }
            try await client.execute(uri: "/v1/spec/types/SoftButton", method: .get) { response in
                #expect(response.json?["kind"] == "struct")
                #expect(response.json?["parameters"]?.arrayValue?.first { $0["name"] == "type" }?["type"] == "SoftButtonType")
            }
            try await client.execute(uri: "/v1/spec/types/SoftButtonType", method: .get) { response in
                #expect(response.json == ["name": "SoftButtonType", "kind": "enum", "elements": ["TEXT", "IMAGE", "BOTH"]])
            }
            try await client.execute(uri: "/v1/spec/types/Show", method: .get) { response in #expect(response.status == .notFound) }
        }
    }
}
