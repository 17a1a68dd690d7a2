import NIOCore

/// Writes SDL frames: header then payload (protocol spec §2; docs/protocol.md §a). A `MessageToByteEncoder`, so it plugs
/// into a pipeline as `MessageToByteHandler(SDLFrameEncoder())`.
public struct SDLFrameEncoder: MessageToByteEncoder, Sendable {
    public typealias OutboundIn = SDLFrame

    public init() {}

    public func encode(data: SDLFrame, out: inout ByteBuffer) {
        out.writeSDLFrame(data)
    }
}

extension ByteBuffer {
    /// Writes `frame`'s header and payload; returns the bytes written.
    @discardableResult
    public mutating func writeSDLFrame(_ frame: SDLFrame) -> Int {
        var payload = frame.payload
        return writeSDLFrameHeader(frame.header) + writeBuffer(&payload)
    }
}
