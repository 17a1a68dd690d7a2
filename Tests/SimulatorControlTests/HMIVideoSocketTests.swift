import HTTPAPISupport
import HTTPTypes
import HeadUnitModel
import HeadlessHMI
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWebSocket
import HummingbirdWSTesting
import Logging
import NIOCore
import NIOWebSocket
import SDLProtocol
@testable import SimulatorControl
import Synchronization
import TestSupport
import Testing

/// The headless HMI's video WebSocket end to end: a fake of Core's HMI WebSocket asks the HMI to
/// play a navigation app's stream, a fake of Core's socket consumer serves it, and a WebSocket
/// reader of the standalone control API gets the bytes.
@Suite("The headless HMI's video WebSocket", .timeLimit(.minutes(1)))
struct HMIVideoSocketTests {
    static let appID: Int64 = 65537

    @Test(
        "A reader of /apps/{appID}/video gets the bytes Core's socket consumer serves, intact and in order; the app's JSON has the stream; plain GET is 426"
    )
    func relaysCoreStream() async throws {
        let (core, streamer, connection, routes) = try await Self.rig()
        let app = Application(router: routes.makeRouter(), server: routes.makeServer())
        let frames = (0..<40).map { index in ByteBuffer(bytes: (0..<(4000 + index * 11)).map { UInt8(truncatingIfNeeded: $0 ^ index) }) }
        let expected = frames.reduce(into: ByteBuffer()) { all, frame in all.writeImmutableBuffer(frame) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            // Core's consumer accepts once the app's data comes (after OnVideoDataStreaming).
            group.addTask { try await streamer.serveOne(frames: frames) }
            try await core.serveOne { core, _ in
                let answer = try await Self.registerAndStart(&core, streamURL: streamer.url)
                #expect(answer == .response(id: 40, result: ["code": 0, "method": "Navigation.StartStream"]))
                // The reader connects through the control API; once it is relayed to, Core says data flows.
                try await withThrowingTaskGroup(of: Void.self) { reader in
                    reader.addTask { try await Self.readVideo(app, expected: expected) }
                    await connection.relay.waitForReaders(appID: Self.appID, kind: .video)
                    try await core.send(try CoreHMIMessages.dataStreaming(true))
                    try await reader.waitForAll()
                }
            }
            group.cancelAll()
        }
    }

    /// A fake Core HMI port and socket consumer, an HMI connection to them, and its control API.
    static func rig() async throws -> (FakeCoreHMI, FakeCoreStreamer, HMIConnection, HMIControlRoutes) {
        let core = try await FakeCoreHMI.bind()
        let streamer = try await FakeCoreStreamer.bind()
        let connection = HMIConnection(
            address: core.address, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)), logger: Logger.test("hmi-video"),
            vehicle: .none)
        return (core, streamer, connection, HMIControlRoutes(connection: connection))
    }

    /// Core registers the navigation app "maps-1" and sends `Navigation.StartStream` for it with
    /// `streamURL`; the HMI's answer (StartStream is answered once the HMI knows the app).
    static func registerAndStart(_ core: inout FakeCoreHMI.Connection, streamURL: String) async throws -> HMIMessage? {
        try await core.send(
            .notification(
                method: "BasicCommunication.OnAppRegistered",
                params: [
                    "application": ["appID": .int(appID), "appName": "Maps", "policyAppID": "maps-1", "appType": ["NAVIGATION"]]
                ]
            ))
        try await core.send(try CoreHMIMessages.startStream(id: 40, appID: appID, url: streamURL))
        return try await core.next { $0.answeredMethod == "Navigation.StartStream" }
    }

    @Test("A message from the reader closes the video WebSocket with 1003 and a reason, as the simulator's feeds do")
    func readerMessageCloses() async throws {
        let (core, streamer, connection, routes) = try await Self.rig()
        let app = Application(router: routes.makeRouter(), server: routes.makeServer())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            try await core.serveOne { core, _ in
                _ = try await Self.registerAndStart(&core, streamURL: streamer.url)
                try await app.test(.live) { client in
                    let close = try await client.ws("/apps/maps-1/video") { inbound, outbound, _ in
                        try await outbound.write(.text("hello"))
                        for try await _ in inbound {}
                    }
                    #expect(close?.closeCode == .unacceptableData)
                    #expect(close?.reason?.contains("takes no messages") == true, "\(String(describing: close))")
                }
            }
            group.cancelAll()
        }
    }

    @Test("A page's upgrade offering sdl-gateway.v1 beside bearer.<token> gets sdl-gateway.v1 selected, never the token")
    func subprotocol() {
        #expect(
            WebSocketSubprotocol.upgradeHeaders(offered: ["sdl-gateway.v1, bearer.secret"]) == [.secWebSocketProtocol: "sdl-gateway.v1"])
        #expect(WebSocketSubprotocol.upgradeHeaders(offered: ["bearer.secret"]) == [:])
        #expect(WebSocketSubprotocol.upgradeHeaders(offered: []) == [:])
    }

    /// Reads `/apps/maps-1/video` until `expected.readableBytes` came and checks them; then the
    /// app's JSON and the plain-GET answers.
    static func readVideo(_ app: some ApplicationProtocol, expected: ByteBuffer) async throws {
        let total = expected.readableBytes
        try await app.test(.live) { client in
            let received = Received()
            // A message is what the HMI read from Core at once: up to NIO's read size, over the client's default 16 KiB.
            _ = try await client.ws("/apps/maps-1/video", configuration: .init(maxFrameSize: 1 << 20)) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    guard case .binary(var bytes) = message else { Issue.record("not bytes: \(message)"); continue }
                    let count = received.bytes.withLock { received in
                        received.writeBuffer(&bytes)
                        return received.readableBytes
                    }
                    if count >= total { break }
                }
            }
            #expect(received.bytes.withLock { $0 } == expected)
        }
        // A client of its own: the first one's connection, opened before the reading, may have
        // outlived the server's 10 s request-head deadline on a loaded machine.
        try await app.test(.live) { client in
            try await client.execute(uri: "/apps/65537", method: .get) { response in
                let json = try SDLJSON.parse(response.body)
                #expect(json["streams"]?["video"]?["state"] == "streaming")
                #expect(json["streams"]?["video"]?["url"]?.stringValue?.hasPrefix("http://127.0.0.1:") == true)
                #expect(json["streams"]?["video"]?["bytes"] == .int(Int64(total)))
                #expect(json["streams"]?["audio"]?["state"] == "stopped")
            }
            try await client.execute(uri: "/apps/65537/video", method: .get) { response in
                #expect(response.status == .upgradeRequired)
            }
            try await client.execute(uri: "/apps/nobody/video", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}

/// What the WebSocket reader got, shared with its handler.
final class Received: Sendable {
    let bytes = Mutex(ByteBuffer())
}
