import HTTPAPISupport
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import HummingbirdWebSocket
import NIOWebSocket
import TestSupport
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import HTTPAPISupport

/// ``WebSocketKeepAlive`` on a test channel with its clock driven by hand: idle until the
/// connection is upgraded; then a ping each period, a connection kept while the client answers
/// (a pong or any bytes), closed after a period with nothing; no timer left once the connection
/// is gone; every served connection gets one, after what its server sets up.
@Suite("WebSocket keep-alive pings from the connection's loop")
struct WebSocketKeepAliveTests {
    static let period: TimeAmount = .seconds(20)

    static func channel() throws -> EmbeddedChannel {
        try channelAndKeepAlive().channel
    }

    static func channelAndKeepAlive() throws -> (channel: EmbeddedChannel, keepAlive: WebSocketKeepAlive) {
        let channel = EmbeddedChannel()
        let keepAlive = WebSocketKeepAlive(period: period)
        try channel.pipeline.syncOperations.addHandler(keepAlive)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        #expect(!keepAlive.isPinging, "an HTTP connection is not pinged")
        channel.pipeline.fireUserInboundEventTriggered(Self.upgraded)
        #expect(keepAlive.isPinging)
        return (channel, keepAlive)
    }

    /// What NIO's upgrade handler tells the pipeline once a connection became a WebSocket.
    static let upgraded = HTTPServerUpgradeEvents.upgradeComplete(
        toProtocol: "websocket", upgradeRequest: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/events"))

    /// Pings written since the last call: each an empty ping frame, FIN set, unmasked (0x89 0x00).
    static func pings(_ channel: EmbeddedChannel) throws -> Int {
        var count = 0
        while let bytes = try channel.readOutbound(as: ByteBuffer.self) {
            #expect(Array(bytes.readableBytesView) == [0x89, 0x00])
            count += 1
        }
        return count
    }

    @Test("No ping before a period; one each period while the client answers; frames pass through unchanged")
    func pingsWhileAnswered() throws {
        let channel = try Self.channel()
        channel.embeddedEventLoop.advanceTime(by: Self.period - .milliseconds(1))
        #expect(try Self.pings(channel) == 0)
        for round in 0..<3 {
            channel.embeddedEventLoop.advanceTime(by: round == 0 ? .milliseconds(1) : Self.period)
            #expect(try Self.pings(channel) == 1)
            // A masked empty pong, as the client's bytes reach the keep-alive (before the decoder).
            let pong = ByteBuffer(bytes: [0x8A, 0x80, 1, 2, 3, 4])
            try channel.writeInbound(pong)
            #expect(try channel.readInbound(as: ByteBuffer.self) == pong)
        }
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test("Any bytes count as an answer as well as a pong does: part of a frame still arriving, or a frame a route's handler takes")
    func anyBytesAnswer() throws {
        let channel = try Self.channel()
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(try Self.pings(channel) == 1)
        try channel.writeInbound(ByteBuffer(bytes: [0x82, 0xFE, 0x40]))
        _ = try channel.readInbound(as: ByteBuffer.self)
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(channel.isActive)
        #expect(try Self.pings(channel) == 1)
        _ = try channel.finish()
    }

    @Test("A period after an unanswered ping the connection is closed, after a close frame with 1001, and no timer is left")
    func closesWhenSilent() throws {
        let (channel, keepAlive) = try Self.channelAndKeepAlive()
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(try Self.pings(channel) == 1)
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(!channel.isActive)
        var close = try #require(try channel.readOutbound(as: ByteBuffer.self))
        #expect(close.readBytes(length: 2) == [0x88, 19], "FIN, close, unmasked, 19 bytes")
        #expect(close.readInteger(as: UInt16.self) == 1001)
        #expect(close.readString(length: close.readableBytes) == "no answer to ping")
        #expect(!keepAlive.isPinging)
        #expect(try Self.pings(channel) == 0)
        channel.embeddedEventLoop.advanceTime(by: Self.period * 3)
        #expect(try Self.pings(channel) == 0)
    }

    @Test("While the connection is not writable (the client still taking earlier frames) no ping is sent and no period counts")
    func busyConnection() throws {
        let channel = try Self.channel()
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(try Self.pings(channel) == 1)
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.advanceTime(by: Self.period * 3)
        #expect(channel.isActive)
        #expect(try Self.pings(channel) == 0)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(!channel.isActive, "writable again and the ping still unanswered: closed")
    }

    @Test("A connection closed by the client stops the pings")
    func stopsWhenClosed() throws {
        let (channel, keepAlive) = try Self.channelAndKeepAlive()
        try channel.close().wait()
        // A ping written to a closed channel never reaches its outbound buffer: the timer's
        // state, not the count of pings, says whether it stopped.
        #expect(!keepAlive.isPinging)
        channel.embeddedEventLoop.advanceTime(by: Self.period * 3)
        #expect(try Self.pings(channel) == 0)
    }

    @Test("Only an upgrade to a WebSocket starts the timer; another protocol's does not")
    func onlyWebSocketUpgrades() throws {
        let channel = EmbeddedChannel()
        let keepAlive = WebSocketKeepAlive(period: Self.period)
        try channel.pipeline.syncOperations.addHandler(keepAlive)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        channel.pipeline.fireUserInboundEventTriggered(
            HTTPServerUpgradeEvents.upgradeComplete(
                toProtocol: "h2c", upgradeRequest: HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")))
        channel.embeddedEventLoop.advanceTime(by: Self.period * 3)
        #expect(!keepAlive.isPinging)
        #expect(try Self.pings(channel) == 0)
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test(
        "A served connection gets the keep-alive last in its pipeline, after what its server set up; one of a server without upgrades gets none"
    )
    func servedConnection() async throws {
        let description = try await Self.servedPipeline(ServedConnectionChannel(requestHeadTimeout: .seconds(10), inner: PipelineStub()))
        // The pipeline's description lists its handlers from head to tail, one a line.
        let handlers = description.split(separator: "\n").filter { $0.contains("[handler") }
        #expect(handlers.first?.contains("RequestHeadDeadline") == true, "\(description)")
        let stub = try #require(handlers.firstIndex { $0.contains("StubHandler") })
        let keepAlive = try #require(handlers.firstIndex { $0.contains("WebSocketKeepAlive") })
        #expect(stub < keepAlive && keepAlive == handlers.count - 1, "\(description)")

        // A server without WebSocket upgrades (boundedHTTP1) passes no period: no keep-alive.
        let plain = try await Self.servedPipeline(
            ServedConnectionChannel(requestHeadTimeout: .seconds(10), keepAlivePeriod: nil, inner: PipelineStub()))
        #expect(plain.contains("StubHandler") && !plain.contains("WebSocketKeepAlive"), "\(plain)")
    }

    /// The pipeline `served` sets up on a test channel, as its description (head to tail).
    static func servedPipeline(_ served: ServedConnectionChannel<PipelineStub>) async throws -> String {
        let channel = NIOAsyncTestingChannel()
        let setup = try await channel.testingEventLoop.executeInContext { served.setup(channel: channel, logger: Logger(label: "test")) }
        _ = try await setup.get()
        let description = try await channel.testingEventLoop.executeInContext { channel.pipeline.debugDescription }
        _ = try await channel.finish()
        return description
    }
}

/// The keep-alive in a real server's pipeline: NIO's upgrade tells it, and its pings reach a
/// raw client.
@Suite("WebSocket keep-alive on a live server", .timeLimit(.minutes(2)))
struct WebSocketKeepAliveLiveTests {
    // 2 s: a client on a loaded machine (the whole suite on two cores) must answer within a period.
    @Test(
        "An upgraded connection is pinged each period (0x89 0x00); it stays while the client answers, and is closed with 1001 a period after it stops"
    )
    func pingsAfterUpgrade() async throws {
        let webSockets = Router(context: BasicWebSocketRequestContext.self)
        webSockets.ws("/ws") { inbound, _, _ in for try await _ in inbound {} }
        let webSocketResponder = webSockets.buildResponder()
        let server = HTTPServerBuilder { responder in
            ServedConnectionChannel(
                requestHeadTimeout: .seconds(10), keepAlivePeriod: .seconds(2),
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: .init(ws: .init(autoPing: .disabled))
                )
            )
        }
        try await Application(router: Router(), server: server).test(.live) { client in
            let port = try #require(client.port)
            // A client whose answer a loaded machine held back for a whole period was closed
            // rightly, and its late pong fails: that attempt is repeated.
            var frames: [WebSocketFrame]?
            for _ in 1...3 where frames == nil {
                frames = try await Self.pingedOut(port: port)
            }
            let seen = try #require(frames, "three connections were closed before their answer went out")
            #expect(seen.count == 3, "two pings, then the close")
            #expect(seen.prefix(2).allSatisfy { $0.opcode == .ping && $0.fin && $0.data.readableBytes == 0 })
            var close = try #require(seen.last)
            #expect(close.opcode == .connectionClose && close.data.readWebSocketErrorCode() == .goingAway)
        }
    }

    /// Upgrades on `port`, answers the first ping, then is silent until the server closes: the
    /// frames it got, or nil when its answer came too late (the server had closed already).
    static func pingedOut(port: Int) async throws -> [WebSocketFrame]? {
        let connection = try await RawConnection.connect(port: port)
        let frames = try await connection.within(.seconds(20)) { connection in
            try await connection.channel.executeThenClose { inbound, outbound -> [WebSocketFrame]? in
                var reader = ServerFrames(inbound.makeAsyncIterator())
                try await outbound.write(ByteBuffer(string: RawConnection.get("/ws", RawConnection.webSocketUpgrade)))
                try await reader.head()
                var frames: [WebSocketFrame] = []
                do {
                    while let frame = try await reader.next() {
                        frames.append(frame)
                        if frames.count == 1 { try await outbound.write(ServerFrames.masked(.pong, frame.data)) }
                    }
                } catch {
                    // A late answer: written after the server closed (or reset by it).
                    return nil
                }
                // Closed after one ping: the answer reached the server after a whole period.
                return frames.count(where: { $0.opcode == .ping }) < 2 ? nil : frames
            }
        }
        return try #require(frames, "the connection was neither pinged out nor closed in 20 s")
    }
}

/// A server's own setup, as far as ``ServedConnectionChannel`` is concerned: one handler.
struct PipelineStub: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
    }

    final class StubHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(StubHandler())
            return Value(channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {}
}
