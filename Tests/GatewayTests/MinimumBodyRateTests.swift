import HTTPAPISupport
import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import TestSupport
import Testing

/// ``MinimumBodyRate`` on an embedded channel, its clock advanced by hand: a body slower than the
/// rule while the server asks for bytes closes the connection; time in which the server asked for
/// nothing (its route busy) is not the client's.
@Suite("A request body's minimum rate")
struct MinimumBodyRateTests {
    static let rule = MinimumBodyRate.Rule(bytesPerSecond: 100, grace: .seconds(1), interval: .seconds(1))

    static func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: MinimumBodyRate(rule: rule, logger: Logger.test("test")))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    static let head = HTTPRequestPart.head(HTTPRequest(method: .post, scheme: nil, authority: "a", path: "/v1/apps"))

    @Test("The server asks, the client sends 1 byte in 4 s: closed")
    func slowClientIsClosed() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{")))
        for _ in 0..<4 {
            channel.read()
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        #expect(!channel.isActive)
    }

    @Test("The server asks for nothing for 10 s (its route busy): open; a body at the rate: open; the end stops the watch")
    func serverTimeIsNotOwed() throws {
        let channel = try Self.channel()
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "{")))
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(channel.isActive)
        for _ in 0..<5 {
            channel.read()
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(repeating: 0x20, count: 100)))
            channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        #expect(channel.isActive)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        _ = try channel.finish(acceptAlreadyClosed: true)
    }
}
