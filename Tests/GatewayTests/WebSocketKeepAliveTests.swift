import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import Gateway

/// ``WebSocketKeepAlive`` on a test channel with its clock driven by hand: a ping each period, a
/// connection kept while the client answers (a pong or any frame), closed after a period with
/// nothing; installed behind NIO's frame decoder; no timer left once the connection is gone.
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
        #expect(keepAlive.isPinging)
        return (channel, keepAlive)
    }

    static func pings(_ channel: EmbeddedChannel) throws -> Int {
        var count = 0
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .ping && frame.fin && frame.data.readableBytes == 0)
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
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: ByteBuffer())
            try channel.writeInbound(pong)
            #expect(try channel.readInbound(as: WebSocketFrame.self) == pong)
        }
        #expect(channel.isActive)
        _ = try channel.finish()
    }

    @Test("A text frame counts as an answer as well as a pong does")
    func anyFrameAnswers() throws {
        let channel = try Self.channel()
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(try Self.pings(channel) == 1)
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "{}")))
        _ = try channel.readInbound(as: WebSocketFrame.self)
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(channel.isActive)
        #expect(try Self.pings(channel) == 1)
        _ = try channel.finish()
    }

    @Test("A period after an unanswered ping the connection is closed, and no timer is left")
    func closesWhenSilent() throws {
        let (channel, keepAlive) = try Self.channelAndKeepAlive()
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(try Self.pings(channel) == 1)
        channel.embeddedEventLoop.advanceTime(by: Self.period)
        #expect(!channel.isActive)
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

    @Test("install puts it just after the frame decoder; a pipeline without one is refused")
    func install() async throws {
        let channel = NIOAsyncTestingChannel()
        try await channel.testingEventLoop.executeInContext {
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder()))
        }
        try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1))
        #expect(await WebSocketKeepAlive.install(on: channel))
        // The pipeline's description lists its handlers from head to tail, one a line.
        let description = try await channel.testingEventLoop.executeInContext { channel.pipeline.debugDescription }
        let handlers = description.split(separator: "\n")
        let decoder = try #require(handlers.firstIndex { $0.contains("ByteToMessageHandler") })
        #expect(handlers[decoder + 1].contains("WebSocketKeepAlive"), "\(description)")
        await channel.testingEventLoop.advanceTime(by: Self.period)
        #expect(try await channel.readOutbound(as: WebSocketFrame.self)?.opcode == .ping)
        _ = try await channel.finish()

        let bare = NIOAsyncTestingChannel()
        #expect(await !WebSocketKeepAlive.install(on: bare))
        _ = try await bare.finish()
    }
}
