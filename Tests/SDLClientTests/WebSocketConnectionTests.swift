import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import SDLTransport
import TestSupport
import Testing

/// ``SDLConnection`` over `ws://` against the simulator's WebSocket listener (SDL Core's WebSocket
/// server for apps, docs/protocol.md §e): one SDL frame per binary message, 127.0.0.1, port 0.
@Suite("Connection to the simulator over WebSocket", .timeLimit(.minutes(1)))
struct WebSocketConnectionTests {
    static let configuration = HeadUnitConfiguration(autoActivate: true, timeScale: 0.01)

    /// Runs a connection to `address` until `body` ends, then closes it; returns how `run()` ended.
    static func withConnection(
        _ address: SDLTransportAddress,
        app: SDLAppConfiguration = SDLAppConfiguration(appName: "Web Demo", appID: "web-demo", isMediaApplication: true),
        _ body: @Sendable (SDLConnection, SDLRPCMessage) async throws -> Void
    ) async throws -> (any Error)? {
        try await ConnectionTests.withConnection(.init(address: address, app: app), body)
    }

    static func waitForFull(_ connection: SDLConnection) async throws {
        try await ConnectionTests.waitFor(connection) { if case .appState(_, to: .active) = $0 { true } else { false } }
    }

    @Test("Registers over ws://, sends Show, gets SUCCESS and ends cleanly with EndServiceACK")
    func session() async throws {
        let simulator = SimulatedHeadUnit(configuration: Self.configuration, logger: Logger.test("test"))
        try await simulator.withListening([.webSocket()]) { ports in
            let address = try SDLTransportAddress("ws://127.0.0.1:\(ports[0])/apps")
            let ended = try await Self.withConnection(address) { connection, response in
                #expect(response.parameters["resultCode"] == "SUCCESS")
                #expect(connection.sessionParameters?.protocolVersion == "5.4.0")
                try await Self.waitForFull(connection)
                let show = try await connection.request("Show", ["mainField1": "Hello over WebSocket"])
                #expect(show.parameters["resultCode"] == "SUCCESS")
                #expect(simulator.snapshot.app(withID: "web-demo")?.screen.show["mainField1"] == "Hello over WebSocket")
            }
            // nil: run() returned without error, which it does only after EndServiceACK.
            #expect(ended == nil)
            #expect(simulator.snapshot.app(withID: "web-demo") == nil)
        }
    }

    @Test("A 300 KB PutFile, First and Consecutive frames above 16 KiB each, succeeds over ws://")
    func multiFrameMessage() async throws {
        let simulator = SimulatedHeadUnit(configuration: Self.configuration, logger: Logger.test("test"))
        try await simulator.withListening([.webSocket()]) { ports in
            let address = try SDLTransportAddress("ws://127.0.0.1:\(ports[0])")
            let ended = try await Self.withConnection(address) { connection, _ in
                try await Self.waitForFull(connection)
                // 300 KB of bulk data at MTU 131072: a First Frame and three Consecutive Frames,
                // each above NIO's default 16 KiB WebSocket frame limit.
                #expect(connection.sessionParameters?.mtu == 131_072)
                var data = ByteBuffer()
                for index in 0..<300_000 { data.writeInteger(UInt8(index % 251)) }
                let response = try await connection.request(
                    "PutFile",
                    ["syncFileName": "big.bin", "fileType": "BINARY", "crc": .int(Int64(SDLCRC32.checksum(data)))],
                    options: .init(timeout: .seconds(20), bulkData: data)
                )
                #expect(response.parameters["resultCode"] == "SUCCESS")
                let list = try await connection.request("ListFiles")
                #expect(list.parameters["filenames"]?.arrayValue?.contains("big.bin") == true)
                #expect(simulator.snapshot.app(withID: "web-demo")?.files["big.bin"]?.size == 300_000)
            }
            #expect(ended == nil)
        }
    }

    @Test("Apps over tcp and ws meet one head unit")
    func oneHeadUnitForBothTransports() async throws {
        let simulator = SimulatedHeadUnit(configuration: Self.configuration, logger: Logger.test("test"))
        try await simulator.withListening([.tcp(), .webSocket()]) { ports in
            let tcp = SDLTransportAddress.tcp(host: "127.0.0.1", port: ports[0])
            let ws = try SDLTransportAddress("ws://127.0.0.1:\(ports[1])")
            _ = try await Self.withConnection(tcp, app: SDLAppConfiguration(appName: "Over TCP", appID: "tcp-app")) { _, _ in
                _ = try await Self.withConnection(ws, app: SDLAppConfiguration(appName: "Over WS", appID: "ws-app")) { _, response in
                    #expect(response.parameters["resultCode"] == "SUCCESS")
                    let apps = simulator.snapshot
                    #expect(apps.app(withID: "tcp-app") != nil)
                    #expect(apps.app(withID: "ws-app") != nil)
                }
            }
        }
    }

    @Test("The registry tells a ws head unit from tcp on the same host, and ignores the path")
    func headUnitIdentity() throws {
        let tcp = SDLAppRegistryIndex.headUnit(address: .tcp(host: "Core.Local", port: 12345))
        #expect(tcp == SDLAppRegistryIndex.headUnit(host: "core.local", port: 12345))
        let ws = SDLAppRegistryIndex.headUnit(address: try SDLTransportAddress("ws://Core.Local/a"))
        #expect(ws == "ws://core.local:2020")
        #expect(ws == SDLAppRegistryIndex.headUnit(address: try SDLTransportAddress("ws://core.local:2020/b")))
        #expect(SDLAppRegistryIndex.headUnit(address: try SDLTransportAddress("wss://core.local")) == "wss://core.local:2020")
        var index = SDLAppRegistryIndex()
        let app = SDLAppConfiguration(appName: "Radio", appID: "radio-1")
        try index.claim(id: "a", headUnit: tcp, app: app)
        try index.claim(id: "b", headUnit: ws, app: app)
        #expect(throws: SDLClientError.self) { try index.claim(id: "c", headUnit: ws, app: app) }
    }

    @Test("Configuration keeps host and port: they read and write the address")
    func configurationAddress() throws {
        var configuration = SDLConnection.Configuration(host: "core.local", port: 4000, app: SDLAppConfiguration(appName: "A", appID: "a"))
        #expect(configuration.address == .tcp(host: "core.local", port: 4000))
        configuration.address = try SDLTransportAddress("ws://10.0.0.2/sdl")
        #expect(configuration.host == "10.0.0.2")
        #expect(configuration.port == 2020)
        configuration.port = 2021
        #expect(configuration.address.description == "ws://10.0.0.2:2021/sdl")
    }
}
