import NIOCore
import NIOEmbedded
import NIOWebSocket
import SDLTransport
import Testing

/// ``SDLWebSocketFrameHandler`` on an `EmbeddedChannel`: SDL bytes in binary messages, one message
/// per written buffer, control frames, and the limits (docs/protocol.md §e "WebSocket server for
/// apps").
@Suite("WebSocket frame handler")
struct FrameHandlerTests {
    /// The handlers added after an upgrade: aggregator and frame handler, fed with frames.
    static func messageChannel(
        role: SDLWebSocket.Role, messages: SDLWebSocket.MessageKind = .binary, maximumMessageSize: Int = 1024
    ) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try SDLWebSocket.addMessageHandlers(
            to: channel.pipeline.syncOperations, role: role, messages: messages, maximumMessageSize: maximumMessageSize)
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 2020), promise: nil)
        return channel
    }

    /// The whole pipeline of an upgraded connection, fed with bytes: the codec and protocol-error
    /// handler the upgraders add, then ``SDLWebSocket/addMessageHandlers(to:role:maximumMessageSize:)``.
    static func byteChannel(role: SDLWebSocket.Role, maximumMessageSize: Int = 1024) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(WebSocketFrameEncoder())
        try pipeline.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: maximumMessageSize)))
        try pipeline.addHandler(WebSocketProtocolErrorHandler(isServer: role == .server))
        try SDLWebSocket.addMessageHandlers(to: pipeline, role: role, maximumMessageSize: maximumMessageSize)
        channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 2020), promise: nil)
        return channel
    }

    /// Everything written so far, as one buffer (the encoder may write header and data apart).
    static func written(_ channel: EmbeddedChannel) throws -> ByteBuffer {
        var all = ByteBuffer()
        while var part = try channel.readOutbound(as: ByteBuffer.self) { all.writeBuffer(&part) }
        return all
    }

    static func masked(_ text: String, opcode: WebSocketOpcode = .binary, fin: Bool = true) -> WebSocketFrame {
        let key: WebSocketMaskingKey = [1, 2, 3, 4]
        var data = ByteBuffer(string: text)
        data.webSocketMask(key)
        return WebSocketFrame(fin: fin, opcode: opcode, maskKey: key, data: data)
    }

    /// The status code of an outbound close frame (its data is not masked yet: the encoder masks).
    static func closeCode(_ frame: WebSocketFrame?) -> WebSocketErrorCode? {
        guard let frame, frame.opcode == .connectionClose else { return nil }
        var data = frame.data
        return data.readWebSocketErrorCode()
    }

    @Test("A binary message comes out as one ByteBuffer, unmasked; fragments are joined first")
    func inboundBinary() throws {
        let channel = try Self.messageChannel(role: .server)
        try channel.writeInbound(Self.masked("SDL frame"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "SDL frame"))
        try channel.writeInbound(Self.masked("first half, ", fin: false))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        try channel.writeInbound(Self.masked("second half", opcode: .continuation))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "first half, second half"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        _ = try channel.finish()
    }

    @Test("On the client side each written ByteBuffer is one binary frame, masked with a fresh key")
    func clientWritesMaskedFrames() throws {
        let channel = try Self.byteChannel(role: .client)
        try channel.writeOutbound(ByteBuffer(string: "one"))
        var first = try Self.written(channel)
        try channel.writeOutbound(ByteBuffer(string: "two"))
        var second = try Self.written(channel)
        for (bytes, text) in [(first, "one"), (second, "two")] {
            // FIN + binary; mask bit + length 3; 4-byte key; 3 masked bytes.
            #expect(bytes.readableBytes == 2 + 4 + 3)
            #expect(bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) == 0x82)
            #expect(bytes.getInteger(at: bytes.readerIndex + 1, as: UInt8.self) == UInt8(0x83))
            let key = WebSocketMaskingKey(bytes.getBytes(at: bytes.readerIndex + 2, length: 4)!)!
            var payload = bytes.getSlice(at: bytes.readerIndex + 6, length: 3)!
            payload.webSocketUnmask(key)
            #expect(payload == ByteBuffer(string: text))
        }
        #expect(first.readBytes(length: 6)?.suffix(4) != second.readBytes(length: 6)?.suffix(4))
        _ = try channel.finish()
    }

    @Test("On the server side each written ByteBuffer is one unmasked binary frame")
    func serverWritesPlainFrames() throws {
        let channel = try Self.byteChannel(role: .server)
        try channel.writeOutbound(ByteBuffer(string: "frame"))
        #expect(try Self.written(channel) == ByteBuffer(bytes: [0x82, 5] + Array("frame".utf8)))
        // And 200 bytes take the 16-bit length form, still one frame.
        try channel.writeOutbound(ByteBuffer(repeating: 7, count: 200))
        let long = try Self.written(channel)
        #expect(long.readableBytes == 4 + 200)
        #expect(long.getBytes(at: long.readerIndex, length: 4) == [0x82, 126, 0, 200])
        _ = try channel.finish()
    }

    @Test("Bytes of a server's binary frame reach the client as one ByteBuffer")
    func clientReadsFrames() throws {
        let channel = try Self.byteChannel(role: .client)
        try channel.writeInbound(ByteBuffer(bytes: [0x82, 3, 0x10, 0x20, 0x30]))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(bytes: [0x10, 0x20, 0x30]))
        _ = try channel.finish()
    }

    @Test("A ping is answered with a pong carrying its data")
    func pingPong() throws {
        let channel = try Self.messageChannel(role: .server)
        try channel.writeInbound(Self.masked("are you there", opcode: .ping))
        let pong = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(pong.opcode == .pong)
        #expect(pong.fin)
        #expect(pong.maskKey == nil)
        #expect(pong.data == ByteBuffer(string: "are you there"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        _ = try channel.finish()
    }

    @Test("A text message closes the connection with 1003 and raises webSocketProtocolViolation")
    func textIsRefused() throws {
        let channel = try Self.messageChannel(role: .client)
        #expect {
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "{}")))
        } throws: { ($0 as? SDLTransportError)?.code == .webSocketProtocolViolation }
        let close = try channel.readOutbound(as: WebSocketFrame.self)
        #expect(Self.closeCode(close) == .unacceptableData)
        #expect(close?.maskKey != nil)
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        #expect(!channel.isActive)
    }

    @Test("Text mode (Core's HMI JSON-RPC): text messages in and out, masked on the client; a binary message closes with 1003")
    func textMode() throws {
        let channel = try Self.messageChannel(role: .client, messages: .text)
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: #"{"id":1}"#)))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: #"{"id":1}"#))
        try channel.writeOutbound(ByteBuffer(string: #"{"id":2}"#))
        let sent = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(sent.opcode == .text && sent.fin && sent.maskKey != nil)
        #expect(sent.data == ByteBuffer(string: #"{"id":2}"#))  // the encoder masks it on the way out
        #expect {
            try channel.writeInbound(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [0x10])))
        } throws: { ($0 as? SDLTransportError)?.code == .webSocketProtocolViolation }
        #expect(Self.closeCode(try channel.readOutbound(as: WebSocketFrame.self)) == .unacceptableData)
        #expect(!channel.isActive)
    }

    @Test("A close frame is echoed with its status code, then the connection closes")
    func closeIsEchoed() throws {
        let channel = try Self.messageChannel(role: .server)
        var data = ByteBuffer()
        data.write(webSocketErrorCode: .goingAway)
        data.writeString("bye")
        try channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
        let close = try #require(try channel.readOutbound(as: WebSocketFrame.self))
        #expect(Self.closeCode(close) == .goingAway)
        #expect(close.data.readableBytes == 2)
        #expect(!channel.isActive)
        // Nothing may follow a close frame.
        #expect(throws: ChannelError.self) { try channel.writeOutbound(ByteBuffer(string: "late")) }
    }

    @Test("Closing from this side sends close 1000 first")
    func closeSendsNormalClosure() throws {
        let channel = try Self.messageChannel(role: .client)
        try channel.close().wait()
        let close = try channel.readOutbound(as: WebSocketFrame.self)
        #expect(Self.closeCode(close) == .normalClosure)
        #expect(try channel.readOutbound(as: WebSocketFrame.self) == nil)
    }

    @Test("A frame above the size limit is refused before it is buffered: close 1009, messageTooLarge")
    func oversizedFrame() throws {
        let channel = try Self.byteChannel(role: .client, maximumMessageSize: 1024)
        // FIN + binary, 16-bit length 2000: only the header has arrived.
        #expect {
            try channel.writeInbound(ByteBuffer(bytes: [0x82, 126, 0x07, 0xD0]))
        } throws: { ($0 as? SDLTransportError)?.code == .messageTooLarge }
        var written = try Self.written(channel)
        // A masked close frame (client side) with code 1009.
        let header = written.readBytes(length: 2)
        #expect(header == [0x88, 0x80 | 2])
        let key = try #require(written.readBytes(length: 4).flatMap(WebSocketMaskingKey.init))
        written.webSocketUnmask(key)
        #expect(written.readWebSocketErrorCode() == .messageTooLarge)
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        #expect(!channel.isActive)
    }

    @Test("A message whose fragments add up above the limit is refused: close 1009, messageTooLarge")
    func oversizedMessage() throws {
        let channel = try Self.messageChannel(role: .server, maximumMessageSize: 1024)
        try channel.writeInbound(Self.masked(String(repeating: "a", count: 600), fin: false))
        #expect {
            try channel.writeInbound(Self.masked(String(repeating: "b", count: 600), opcode: .continuation, fin: false))
        } throws: { ($0 as? SDLTransportError)?.code == .messageTooLarge }
        #expect(Self.closeCode(try channel.readOutbound(as: WebSocketFrame.self)) == .messageTooLarge)
        #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
        #expect(!channel.isActive)
    }
}
