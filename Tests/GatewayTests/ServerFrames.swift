import NIOCore
import NIOWebSocket

/// A raw WebSocket client's view of the server: the 101 head, then the server's frames
/// (unmasked, RFC 6455 §5.1) parsed from the bytes as they come.
struct ServerFrames {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var buffer = ByteBuffer()

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) {
        self.inbound = inbound
    }

    /// Reads the upgrade's answer, which must be 101.
    mutating func head() async throws {
        while buffer.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard var more = try await inbound.next() else { throw ServerFramesError(problem: "closed before the 101") }
            buffer.writeBuffer(&more)
        }
        let end = buffer.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8))!
        let head = buffer.readString(length: end.upperBound - buffer.readerIndex) ?? ""
        guard head.hasPrefix("HTTP/1.1 101") else { throw ServerFramesError(problem: "not upgraded: \(head)") }
    }

    /// Takes what the next read brought; false when the server closed the connection.
    mutating func readMore() async throws -> Bool {
        guard var more = try await inbound.next() else { return false }
        buffer.writeBuffer(&more)
        return true
    }

    /// The next whole frame, or nil when the server closed the connection.
    mutating func next() async throws -> WebSocketFrame? {
        while true {
            if let frame = Self.parse(&buffer) { return frame }
            guard try await readMore() else { return nil }
        }
    }

    /// One frame from the front of `buffer`, when a whole one is there
    /// (``SlowLinkClient/readServerFrame(_:)``).
    static func parse(_ buffer: inout ByteBuffer) -> WebSocketFrame? {
        var view = buffer
        guard let (fin, code, data) = SlowLinkClient.readServerFrame(&view), let opcode = WebSocketOpcode(encodedWebSocketOpcode: code)
        else {
            return nil
        }
        buffer = view
        return WebSocketFrame(fin: fin, opcode: opcode, data: data)
    }

    /// A client's frame, masked with a zero key (``SlowLinkClient/frame(opcode:_:)``).
    static func masked(_ opcode: WebSocketOpcode, _ payload: ByteBuffer) -> ByteBuffer {
        SlowLinkClient.frame(opcode: UInt8(webSocketOpcode: opcode), payload)
    }
}

struct ServerFramesError: Error, CustomStringConvertible {
    let problem: String
    var description: String { problem }
}
