import HeadUnitModel
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket
import SDLProtocol
import SimulatorControl
import Synchronization
import TestSupport
import Testing

/// The projection routes of the simulator's control API: the kept bytes of a stream with their
/// counts, the live WebSocket feed, and touches.
@Suite("Simulator control API: streams and touches", .timeLimit(.minutes(1)))
struct SimulatorStreamRoutesTests {
    /// An SDL app on a simulator, fed bytes straight into the head unit (no sockets).
    final class App: Sendable {
        let simulator: SimulatedHeadUnit
        let connection: ConnectionID
        private let messageIDs = Mutex<UInt32>(1)

        func nextMessageID() -> UInt32 {
            messageIDs.withLock { id in
                id += 1
                return id
            }
        }

        /// A NAVIGATION app `nav-1` (registered, in FULL) on a simulator that keeps `kept` bytes per stream.
        init(kept: Int = 8 << 20) throws {
            var configuration = HeadUnitConfiguration()
            configuration.streamKeptBytes = kept
            simulator = SimulatedHeadUnit(configuration: configuration, logger: Logger.test("test"))
            connection = simulator.perform { unit, _ in (unit.connectionOpened(), []) }
            send(
                SDLControlMessage.startService(.init(protocolVersion: "5.4.0")).makeFrame(
                    version: 5, serviceType: .rpc, sessionID: 0, messageID: 1))
            var payload = ByteBuffer()
            payload.writeSDLRPCMessage(
                SDLRPCMessage(
                    rpcType: .request, functionID: 1, correlationID: 1,
                    parameters: [
                        "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0], "appName": "Nav", "isMediaApplication": false,
                        "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "nav-1", "appHMIType": ["NAVIGATION"],
                    ]))
            send(
                SDLFrame(
                    header: .init(version: 5, frameType: .single, serviceType: .rpc, sessionID: 1, dataSize: 0, messageID: 1),
                    payload: payload))
            try simulator.perform { unit, now in
                ((), try unit.setHMI(appID: "nav-1", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: now))
            }
        }

        func send(_ frame: SDLFrame) {
            var bytes = ByteBuffer()
            bytes.writeSDLFrame(frame)
            simulator.perform { unit, now in ((), unit.receive(bytes, on: connection, now: now)) }
        }

        func start(_ service: SDLServiceType) {
            let messageID = nextMessageID()
            send(
                SDLControlMessage.startService(
                    .init(videoProtocol: service == .video ? "RAW" : nil, videoCodec: service == .video ? "H264" : nil)
                )
                .makeFrame(version: 5, serviceType: service, sessionID: 1, messageID: messageID))
        }

        func stream(_ bytes: [UInt8], on service: SDLServiceType) {
            let messageID = nextMessageID()
            send(
                SDLFrame(
                    header: .init(version: 5, frameType: .single, serviceType: service, sessionID: 1, dataSize: 0, messageID: messageID),
                    payload: ByteBuffer(bytes: bytes)))
        }
    }

    static func router(_ simulator: SimulatedHeadUnit) -> Router<BasicRequestContext> {
        let router = Router()
        SimulatorControlRoutes(simulator: simulator).add(to: router.group("v1/simulator"))
        return router
    }

    @Test("GET video.h264 answers the kept bytes and the counts; 404 before the app streamed, and for an unknown app")
    func keptBytes() async throws {
        let app = try App(kept: 6)
        try await Application(router: Self.router(app.simulator)).test(.router) { client in
            for uri in ["/v1/simulator/apps/nav-1/video.h264", "/v1/simulator/apps/nav-1/audio.pcm"] {
                try await client.execute(uri: uri, method: .get) { response throws in
                    #expect(response.status == .notFound)
                    #expect(try SDLJSON.parse(response.body)["type"] == "urn:sdl-gateway:problem:stream-not-found")
                }
            }
            try await client.execute(uri: "/v1/simulator/apps/nobody/video.h264", method: .get) { response throws in
                #expect(response.status == .notFound)
                #expect(try SDLJSON.parse(response.body)["type"] == "urn:sdl-gateway:problem:app-not-found")
            }
            app.start(.video)
            app.stream([0, 0, 0, 1, 0x67], on: .video)
            app.stream([0, 0, 0, 1], on: .video)
            try await client.execute(uri: "/v1/simulator/apps/nav-1/video.h264", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "video/h264")
                #expect(response.headers[.init("SDL-Stream-Bytes")!] == "9")
                #expect(response.headers[.init("SDL-Stream-Frames")!] == "2")
                #expect(response.headers[.init("SDL-Stream-State")!] == "streaming")
                #expect(Array(buffer: response.body) == [1, 0x67, 0, 0, 0, 1], "the last 6 bytes")
            }
            try await client.execute(uri: "/v1/simulator/apps", method: .get) { response throws in
                let streams = try SDLJSON.parse(response.body).arrayValue?.first?["streams"]
                #expect(
                    streams?["video"] == [
                        "state": "streaming", "bytes": 9, "frames": 2, "keptBytes": 6, "format": ["codec": "H264", "protocol": "RAW"],
                    ])
                #expect(streams?["audio"] == nil)
            }
            // The app leaves FULL for NONE: the head unit ends the service.
            try app.simulator.perform { unit, now in
                ((), try unit.setHMI(appID: "nav-1", hmiLevel: "NONE", audioStreamingState: nil, systemContext: nil, now: now))
            }
            try await client.execute(uri: "/v1/simulator/apps/nav-1/video.h264", method: .get) { response in
                #expect(response.headers[.init("SDL-Stream-State")!] == "stopped")
                #expect(response.headers[.init("SDL-Stream-Bytes")!] == "9")
            }
            try await client.execute(uri: "/v1/simulator/apps/nav-1/video", method: .get) { response throws in
                #expect(response.status == .upgradeRequired)
                #expect(try SDLJSON.parse(response.body)["type"] == "urn:sdl-gateway:problem:websocket-required")
            }
        }
    }

    @Test("POST touch sends OnTouchEvent to the app: one touch, {events}, or an array; bad bodies are 400, bad values 422")
    func touch() async throws {
        let app = try App()
        try await Application(router: Self.router(app.simulator)).test(.router) { client in
            func post(_ body: String) async throws -> (HTTPResponse.Status, SDLJSON?) {
                try await client.execute(
                    uri: "/v1/simulator/apps/nav-1/touch", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: body)
                ) { response in (response.status, try? SDLJSON.parse(response.body)) }
            }
            var (status, answer) = try await post(#"{"type":"BEGIN","x":100,"y":200}"#)
            #expect(status == .ok)
            #expect(answer == ["sent": 1])
            (status, answer) = try await post(#"{"events":[{"type":"MOVE","x":101,"y":201,"id":1},{"type":"END","x":102,"y":202,"id":1}]}"#)
            #expect(answer == ["sent": 2])
            (status, answer) = try await post(#"[{"type":"CANCEL","x":0,"y":0}]"#)
            #expect(answer == ["sent": 1])
            let sent = app.simulator.snapshot.log.entries.filter { $0.function == "OnTouchEvent" && $0.direction == .toApp }
            #expect(sent.map { $0.parameters["type"] } == ["BEGIN", "MOVE", "END", "CANCEL"])
            let touches = sent.map { $0.parameters["event"]?.arrayValue?.first }
            #expect(
                touches.map { $0?["c"] } == [
                    [["x": 100, "y": 200]], [["x": 101, "y": 201]], [["x": 102, "y": 202]], [["x": 0, "y": 0]],
                ])
            #expect(touches.map { $0?["id"] } == [0, 1, 1, 0])

            for (body, expected) in [
                (#"{"type":"BEGIN","x":"1","y":2}"#, HTTPResponse.Status.badRequest), (#"{"type":"BEGIN","x":1}"#, .badRequest),
                (#"{"type":"BEGIN","x":1,"y":2,"z":3}"#, .badRequest), (#"{"events":{}}"#, .badRequest), ("5", .badRequest),
                (#"{"type":"TAP","x":1,"y":2}"#, .unprocessableContent), (#"{"type":"BEGIN","x":1,"y":2,"id":10}"#, .unprocessableContent),
                (#"{"type":"BEGIN","x":-1,"y":2}"#, .unprocessableContent), ("[]", .unprocessableContent),
            ] {
                (status, answer) = try await post(body)
                #expect(status == expected, "\(body)")
                #expect(answer?["type"] != nil, "\(body) is answered with a problem")
            }
            try await client.execute(
                uri: "/v1/simulator/apps/nobody/touch", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"type":"BEGIN","x":1,"y":2}"#)
            ) { response in #expect(response.status == .notFound) }
        }
    }

    @Test("The WebSocket feed sends the stream's bytes live, in order, and closes when the app is gone")
    func liveFeed() async throws {
        let app = try App()
        let routes = SimulatorControlRoutes(simulator: app.simulator)
        let application = Application(router: routes.makeRouter(), server: routes.makeServer())
        try await application.test(.live) { client in
            _ = try await client.ws("/apps/nav-1/video") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                app.start(.video)
                var expected: [UInt8] = []
                for index in 0..<50 {
                    let bytes = (0..<(100 + index)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index) }
                    expected += bytes
                    app.stream(bytes, on: .video)
                }
                var received: [UInt8] = []
                while received.count < expected.count, let message = try await messages.next() {
                    guard case .binary(let bytes) = message else { Issue.record("unexpected \(message)"); return }
                    received += Array(buffer: bytes)
                }
                #expect(received == expected)
                // The app goes away: the feed closes.
                app.simulator.perform { unit, now in ((), unit.connectionClosed(app.connection, now: now)) }
                #expect(try await messages.next() == nil)
            }
            // No such app: the upgrade is refused.
            await #expect(throws: (any Error).self) { _ = try await client.ws("/apps/nobody/video") { _, _, _ in } }
        }
    }

    @Test("A message from the reader closes the feed with 1003 and a reason (the feed only sends), as the headless HMI's feed does")
    func readerMessageCloses() async throws {
        let app = try App()
        let routes = SimulatorControlRoutes(simulator: app.simulator)
        let application = Application(router: routes.makeRouter(), server: routes.makeServer())
        try await application.test(.live) { client in
            for service in ["video", "audio"] {
                let close = try await client.ws("/apps/nav-1/\(service)") { inbound, outbound, _ in
                    try await outbound.write(.text("hello"))
                    for try await _ in inbound {}
                }
                #expect(close?.closeCode == .unacceptableData, "\(service)")
                #expect(close?.reason?.contains("takes no messages") == true, "\(service): \(String(describing: close))")
            }
        }
    }

    /// What a reader of ``SimulatedHeadUnit/followStream(appID:_:maximumMessageSize:_:)`` got.
    final class Pieces: Sendable {
        let all = Mutex<[StreamPiece]>([])
    }

    @Test("A reader slower than the stream loses the oldest bytes and is told how many: a gap, then the newest")
    func slowReaderGap() async throws {
        let app = try App(kept: 10)
        app.start(.audio)
        let (firstRead, firstReadDone) = AsyncStream<Void>.makeStream()
        let (proceed, proceedGo) = AsyncStream<Void>.makeStream()
        let simulator = app.simulator
        let pieces = Pieces()
        let reader = Task {
            try await simulator.followStream(appID: "nav-1", .audio) { piece in
                let count = pieces.all.withLock { all in
                    all.append(piece)
                    return all.count
                }
                if count == 1 {
                    firstReadDone.yield()
                    for await _ in proceed { break }  // a slow reader: busy until told
                }
                if case .bytes(let bytes) = piece, bytes.readableBytesView.last == 0xEE { throw CancellationError() }
            }
        }
        app.stream([1, 2, 3], on: .audio)
        for await _ in firstRead { break }
        for chunk in 0..<5 { app.stream([UInt8](repeating: UInt8(10 + chunk), count: 4), on: .audio) }  // 20 bytes, 10 kept
        app.stream([0xEE], on: .audio)
        proceedGo.yield()
        _ = await reader.result
        #expect(
            pieces.all.withLock { $0 } == [
                .bytes(ByteBuffer(bytes: [1, 2, 3])), .gap(11), .bytes(ByteBuffer(bytes: [12, 13, 13, 13, 13, 14, 14, 14, 14, 0xEE])),
            ])
    }
}
