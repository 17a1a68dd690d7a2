import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SDLProtocol
import SimulatorControl
import TestSupport
import Testing

/// `GET /apps/{appID}/files` and `GET`/`HEAD /apps/{appID}/files/{name}` on the standalone control
/// API (`simulate --control`, routes at `/`); the gateway's mount is GatewayTests'.
@Suite("Simulator control API: the apps' files", .timeLimit(.minutes(1)))
struct SimulatorFileRoutesTests {
    static let png = ByteBuffer(
        bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    static let svg = ByteBuffer(string: #"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#)

    /// The spec's `FunctionID`s of the requests sent.
    static let functionIDs: [String: UInt32] = ["RegisterAppInterface": 1, "PutFile": 32]

    /// Sends one SDL request (with bulk data for PutFile) on session 1 of `connection`.
    static func send(
        _ function: String, _ parameters: SDLJSON, bulkData: ByteBuffer? = nil, messageID: UInt32, on connection: ConnectionID,
        to simulator: SimulatedHeadUnit
    ) {
        let functionID = functionIDs[function]!
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(
            SDLRPCMessage(rpcType: .request, functionID: functionID, correlationID: messageID, parameters: parameters, bulkData: bulkData))
        let message = SDLMessage(
            version: 5, serviceType: bulkData == nil ? .rpc : .bulkData, sessionID: 1, messageID: messageID, payload: payload)
        var bytes = ByteBuffer()
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: 131_072) { bytes.writeSDLFrame(frame) }
        simulator.perform { unit, now in ((), unit.receive(bytes, on: connection, now: now)) }
    }

    /// A simulator whose app `demo` (in FULL) put `icon.png`, `evil.svg` (said to be a PNG),
    /// `my icon.png`, `data.json` and the first of two chunks of `track.mp3`; the standalone
    /// control router.
    static func makeApplication() -> (some ApplicationProtocol, SimulatedHeadUnit, ConnectionID) {
        let simulator = SimulatedHeadUnit(
            configuration: HeadUnitConfiguration(autoActivate: true, autoActivateDelay: .zero), logger: Logger.test("test"))
        let connection = simulator.perform { unit, now in
            let connection = unit.connectionOpened()
            var bytes = ByteBuffer()
            bytes.writeSDLFrame(
                SDLControlMessage.startService(.init(protocolVersion: "5.4.0")).makeFrame(
                    version: 5, serviceType: .rpc, sessionID: 0, messageID: 1))
            return (connection, unit.receive(bytes, on: connection, now: now))
        }
        send(
            "RegisterAppInterface",
            [
                "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0], "appName": "Demo", "isMediaApplication": false,
                "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "demo",
            ],
            messageID: 1, on: connection, to: simulator
        )
        // Out of NONE, where PutFile is limited to five: the activation is due at once, and
        // `perform` brings the head unit up to the clock's time first.
        simulator.perform { _, _ in ((), []) }
        send(
            "PutFile", ["syncFileName": "icon.png", "fileType": "GRAPHIC_PNG", "persistentFile": true], bulkData: png, messageID: 2,
            on: connection, to: simulator)
        send(
            "PutFile", ["syncFileName": "evil.svg", "fileType": "GRAPHIC_PNG"], bulkData: svg, messageID: 3, on: connection, to: simulator)
        send(
            "PutFile", ["syncFileName": "my icon.png", "fileType": "GRAPHIC_PNG"], bulkData: png, messageID: 4, on: connection,
            to: simulator)
        send(
            "PutFile", ["syncFileName": "data.json", "fileType": "JSON"], bulkData: ByteBuffer(string: #"{"a":1}"#), messageID: 5,
            on: connection, to: simulator)
        send(
            "PutFile", ["syncFileName": "track.mp3", "fileType": "AUDIO_MP3", "offset": 0, "length": 20],
            bulkData: ByteBuffer(repeating: 1, count: 10), messageID: 6, on: connection, to: simulator)
        return (Application(router: SimulatorControlRoutes(simulator: simulator).makeRouter()), simulator, connection)
    }

    static func json(_ response: TestResponse) throws -> SDLJSON {
        try SDLJSON.parse(response.body)
    }

    static func tag(_ bytes: ByteBuffer) -> String {
        "\"\(String(SDLCRC32.checksum(bytes), radix: 16))-\(String(bytes.readableBytes, radix: 16))\""
    }

    @Test("GET /apps/{appID}/files lists each file: name, size, fileType, persistent, systemFile, complete (and length while incomplete)")
    func list() async throws {
        let (app, _, _) = Self.makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/apps/DEMO/files", method: .get) { response throws in
                #expect(response.status == .ok)
                let files = try #require(try Self.json(response).arrayValue)
                #expect(files.compactMap { $0["name"]?.stringValue } == ["data.json", "evil.svg", "icon.png", "my icon.png", "track.mp3"])
                #expect(
                    files[2] == [
                        "name": "icon.png", "size": 508, "fileType": "GRAPHIC_PNG", "persistent": true, "systemFile": false,
                        "complete": true,
                    ])
                #expect(
                    files[4] == [
                        "name": "track.mp3", "size": 10, "fileType": "AUDIO_MP3", "persistent": false, "systemFile": false,
                        "complete": false, "length": 20,
                    ])
            }
            try await client.execute(uri: "/apps/nobody/files", method: .get) { response throws in
                #expect(response.status == .notFound)
                #expect(try Self.json(response)["type"] == "urn:sdl-gateway:problem:app-not-found")
            }
        }
    }

    @Test(
        "GET /apps/{appID}/files/{name}: the exact bytes, the FileType's media type, Content-Length, ETag, no-cache, and a sandbox so no file runs script; HEAD the same without the body"
    )
    func getAndHead() async throws {
        let (app, _, _) = Self.makeApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/apps/demo/files/icon.png", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.body == Self.png)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.contentLength] == "508")
                #expect(response.headers[.eTag] == Self.tag(Self.png))
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.headers[.contentSecurityPolicy] == "sandbox; frame-ancestors 'none'")
                #expect(response.headers.first { $0.name.canonicalName == "x-content-type-options" }?.value == "nosniff")
                #expect(response.headers[.contentDisposition] == "inline; filename*=UTF-8''icon.png")
            }
            try await client.execute(uri: "/apps/demo/files/icon.png", method: .head) { response throws in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == "508")
                #expect(response.headers[.eTag] == Self.tag(Self.png))
                #expect(response.headers[.contentType] == "image/png")
            }
            // The media type is the FileType's, never the name's: an SVG sent as a PNG is image/png.
            try await client.execute(uri: "/apps/demo/files/evil.svg", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.body == Self.svg)
            }
            try await client.execute(uri: "/apps/demo/files/data.json", method: .get) { response throws in
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body) == #"{"a":1}"#)
            }
            try await client.execute(uri: "/apps/demo/files/my%20icon.png", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.body == Self.png)
                #expect(response.headers[.contentDisposition] == "inline; filename*=UTF-8''my%20icon.png")
            }
        }
    }

    @Test(
        "If-None-Match with the file's tag (strong, weak or in a list) is 304 without a body; another tag is 200; a new upload changes the tag"
    )
    func conditional() async throws {
        let (app, simulator, connection) = Self.makeApplication()
        try await app.test(.router) { client in
            for match in [Self.tag(Self.png), "W/" + Self.tag(Self.png), "\"other\", " + Self.tag(Self.png), "*"] {
                try await client.execute(uri: "/apps/demo/files/icon.png", method: .get, headers: [.ifNoneMatch: match]) {
                    response throws in
                    #expect(response.status == .notModified, "\(match)")
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.eTag] == Self.tag(Self.png))
                    #expect(response.headers[.cacheControl] == "no-cache")
                }
            }
            try await client.execute(uri: "/apps/demo/files/icon.png", method: .get, headers: [.ifNoneMatch: "\"0-1fc\""]) {
                response throws in
                #expect(response.status == .ok)
                #expect(response.body == Self.png)
            }
            Self.send(
                "PutFile", ["syncFileName": "icon.png", "fileType": "GRAPHIC_PNG"], bulkData: Self.svg, messageID: 7, on: connection,
                to: simulator)
            try await client.execute(uri: "/apps/demo/files/icon.png", method: .get, headers: [.ifNoneMatch: Self.tag(Self.png)]) {
                response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] == Self.tag(Self.svg))
                #expect(response.body == Self.svg)
            }
        }
    }

    @Test(
        "A chunked upload still under way is 409 file-incomplete (GET and HEAD) until its last chunk; an unknown file is 404 file-not-found; an unknown app 404 app-not-found"
    )
    func incompleteAndUnknown() async throws {
        let (app, simulator, connection) = Self.makeApplication()
        try await app.test(.router) { client in
            for method in [HTTPRequest.Method.get, .head] {
                try await client.execute(uri: "/apps/demo/files/track.mp3", method: method) { response throws in
                    #expect(response.status == .conflict, "\(method)")
                    if method == .get {
                        #expect(try Self.json(response)["type"] == "urn:sdl-gateway:problem:file-incomplete")
                        #expect(try Self.json(response)["detail"]?.stringValue?.contains("10 of its 20 bytes") == true)
                    }
                }
            }
            Self.send(
                "PutFile", ["syncFileName": "track.mp3", "fileType": "AUDIO_MP3", "offset": 10],
                bulkData: ByteBuffer(repeating: 2, count: 10), messageID: 7, on: connection, to: simulator)
            try await client.execute(uri: "/apps/demo/files/track.mp3", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "audio/mpeg")
                #expect(response.body == ByteBuffer(bytes: [UInt8](repeating: 1, count: 10) + [UInt8](repeating: 2, count: 10)))
            }
            try await client.execute(uri: "/apps/demo/files/nothing.png", method: .get) { response throws in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
                let problem = try Self.json(response)
                #expect(problem["type"] == "urn:sdl-gateway:problem:file-not-found")
                #expect(problem["detail"]?.stringValue?.contains("icon.png") == false, "the problem lists no other file")
            }
            try await client.execute(uri: "/apps/nobody/files/icon.png", method: .get) { response throws in
                #expect(response.status == .notFound)
                #expect(try Self.json(response)["type"] == "urn:sdl-gateway:problem:app-not-found")
            }
        }
    }
}
