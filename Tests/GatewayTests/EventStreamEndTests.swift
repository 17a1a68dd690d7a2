import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOWebSocket
import SDLProtocol
import TestSupport
import Testing

@testable import Gateway

/// How an event WebSocket ends when its stream does (the app deleted, the gateway stopping):
/// what the gateway still held reaches a client that had stopped reading, then the close with
/// 1001; the end waits for the client's message under way.
@Suite("An event WebSocket's end", .timeLimit(.minutes(2)))
struct EventStreamEndTests {
    typealias H = GatewayHarness

    @Test(
        "A client that stopped reading when the stream ended gets what the gateway held, every event delivered or counted in a gap, then 1001 with its reason"
    )
    func slowClientGetsTheEnd() async throws {
        let configuration = GatewayConfiguration(events: .init(ringCapacity: 100, clientQueueCapacity: 20, maximumClients: 10))
        try await H.withGateway(configuration, mode: .live) { client, _, apps in
            try await H.createApp(client)
            let port = try #require(client.port)
            // 4 KiB of receive buffer: what the client does not read stays in the gateway (the
            // gateway's socket takes up to 4 MiB, loopback's largest send buffer, before its
            // writes back up).
            let connection = try await RawConnection.connect(port: port, receiveBuffer: 4096, halfClosure: true)
            let count = 12_000
            let padding = SDLJSON.string(String(repeating: "x", count: 1024))
            let frames = try await connection.channel.executeThenClose { inbound, outbound in
                var reader = ServerFrames(inbound.makeAsyncIterator())
                try await outbound.write(
                    ByteBuffer(string: RawConnection.get("/v1/apps/demo/events?types=vehicleData", RawConnection.webSocketUpgrade)))
                try await reader.head()
                // The filter's answer: the subscription is in place.
                try await outbound.write(ServerFrames.masked(.text, ByteBuffer(string: #"{"filter":{"types":["vehicleData"]}}"#)))
                #expect(try await reader.next()?.opcode == .text)
                for speed in 1...count {
                    apps.hub.publish(app: "demo", type: "vehicleData", data: ["speed": .int(Int64(speed)), "pad": padding])
                    // The other tests running beside this one get the thread now and then.
                    if speed % 100 == 0 { await Task.yield() }
                }
                apps.hub.finishAll()
                // Only now does the client read: everything until the server's close frame, which
                // it answers (the server ends its writes after that frame, and reads on).
                var frames: [WebSocketFrame] = []
                while let frame = try await reader.next() {
                    frames.append(frame)
                    if frame.opcode == .connectionClose {
                        try await outbound.write(ServerFrames.masked(.connectionClose, frame.data))
                        break
                    }
                }
                return frames
            }
            // Events carry 1 KiB of padding, gaps do not: only the gaps are parsed.
            let texts = frames.filter { $0.opcode == .text }
            let gaps = texts.filter { $0.data.readableBytes < 512 }.compactMap { try? SDLJSON.parse(String(buffer: $0.data)) }
            #expect(!gaps.isEmpty && gaps.allSatisfy { $0["type"] == "gap" }, "the client fell behind: its queue overflowed")
            // Every event came or was counted in a gap, to the last one, before the close.
            let delivered = texts.count - gaps.count
            let missed = gaps.compactMap { $0["data"]?["missed"]?.intValue }.reduce(0, +)
            #expect(delivered + Int(missed) == count)
            let close = try #require(frames.last)
            #expect(close.opcode == .connectionClose)
            var reason = close.data
            #expect(reason.readInteger(as: UInt16.self) == 1001)
            #expect(reason.readString(length: reason.readableBytes) == "the event stream ended")
        }
    }

    @Test("The end goes behind the client's message under way, never inside it; outside a message it goes at once")
    func endWaitsForTheMessage() throws {
        let channel = EmbeddedChannel()
        let marker = StreamEndMarker()
        try channel.pipeline.syncOperations.addHandler(marker)
        try channel.writeInbound(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: "{\"fil")))
        marker.mark()
        #expect(try channel.readInbound(as: WebSocketFrame.self)?.data == ByteBuffer(string: "{\"fil"))
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil, "nothing inside the message")
        // A ping between a message's frames is allowed (RFC 6455 §5.4) and does not end it.
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer()))
        #expect(try channel.readInbound(as: WebSocketFrame.self)?.opcode == .ping)
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil)
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "ter\":{}}")))
        #expect(try channel.readInbound(as: WebSocketFrame.self)?.opcode == .continuation)
        let end = try #require(try channel.readInbound(as: WebSocketFrame.self))
        #expect(end.opcode == .text && end.fin && end.data.readableBytes == 0)
        // Between messages the end is read at once.
        marker.mark()
        #expect(try channel.readInbound(as: WebSocketFrame.self)?.data.readableBytes == 0)
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil)
    }
    /// A connected test channel with a marker (15 s for a message to end, 5 s for the close frame
    /// to be written), behind `handler` when there is one.
    static func connectedMarker(behind handler: (any ChannelHandler)? = nil) throws -> (EmbeddedChannel, StreamEndMarker) {
        let channel = EmbeddedChannel()
        let marker = StreamEndMarker(messageGrace: .seconds(15), closeGrace: .seconds(5))
        if let handler { try channel.pipeline.syncOperations.addHandler(handler) }
        try channel.pipeline.syncOperations.addHandler(marker)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, marker)
    }

    /// What a client cut off mid-message was sent: one close frame, 1001 and the reason.
    static func expectCutOff(_ channel: EmbeddedChannel) throws {
        var close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(close.opcode == .connectionClose && close.fin)
        #expect(close.data.readWebSocketErrorCode() == .goingAway)
        #expect(close.data.readString(length: close.data.readableBytes) == StreamEndMarker.reason)
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
    }

    @Test("A message that never ends: after the grace the client gets 1001 from the marker and is closed")
    func messageThatNeverEnds() throws {
        let (channel, marker) = try Self.connectedMarker()
        try channel.writeInbound(WebSocketFrame(fin: false, opcode: .binary, data: ByteBuffer(bytes: [1, 2])))
        marker.mark()
        marker.mark()  // a second end changes nothing
        _ = try channel.readInbound(as: WebSocketFrame.self)
        channel.embeddedEventLoop.advanceTime(by: .seconds(14))
        // Only pongs meanwhile: they do not end the message.
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .pong, data: ByteBuffer()))
        _ = try channel.readInbound(as: WebSocketFrame.self)
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        try Self.expectCutOff(channel)
        #expect(!channel.isActive, "closed once the close frame was written")
        #expect(try channel.readInbound(as: WebSocketFrame.self) == nil, "no end message inside the client's message")
    }

    @Test("A message that ends within the grace: the end goes up behind it and nothing is closed")
    func messageEndsInTime() throws {
        let (channel, marker) = try Self.connectedMarker()
        try channel.writeInbound(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: "{")))
        marker.mark()
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "}")))
        _ = try channel.readInbound(as: WebSocketFrame.self)
        _ = try channel.readInbound(as: WebSocketFrame.self)
        #expect(try channel.readInbound(as: WebSocketFrame.self)?.data.readableBytes == 0)
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
        #expect(channel.isActive)
    }

    @Test("A cut-off client that reads nothing: closed after the close grace without its close frame written")
    func cutOffClientThatDoesNotRead() throws {
        let held = HeldWrites()
        let (channel, marker) = try Self.connectedMarker(behind: held)
        try channel.writeInbound(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: "{")))
        marker.mark()
        channel.embeddedEventLoop.advanceTime(by: .seconds(15))
        #expect(held.promises.count == 1, "the close frame waits to be written")
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(!channel.isActive)
        for promise in held.promises { promise?.succeed() }
    }
}

/// Keeps every write, as a socket a client does not read keeps them, until the test lets them go.
private final class HeldWrites: ChannelOutboundHandler {
    typealias OutboundIn = WebSocketFrame
    var promises: [EventLoopPromise<Void>?] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        promises.append(promise)
    }

    func flush(context: ChannelHandlerContext) {}
}
