import NIOCore

/// Cuts an SDL byte stream into frames (protocol spec §2; docs/protocol.md §a).
///
/// The decoder is incremental: with half a frame readable it returns `nil` and consumes nothing;
/// with many frames readable each call returns the next one. The payload limit is checked as soon
/// as the header is readable, before any payload is buffered, so a hostile `dataSize` can never
/// make the connection buffer more than one header plus ``maximumPayloadSize`` bytes.
///
/// It is a `NIOSingleStepByteToMessageDecoder`, so it plugs into a pipeline with
/// `ByteToMessageHandler(SDLFrameDecoder(), maximumBufferSize: ...)` and also works on its own
/// with `NIOSingleStepByteToMessageProcessor`.
public struct SDLFrameDecoder: NIOSingleStepByteToMessageDecoder, Sendable {
    public typealias InboundOut = SDLFrame

    /// SDL Core's shipped `MaximumPayloadSize` and the v3/v4 payload size (protocol spec §2.4; docs/protocol.md §a, MTU).
    public static let defaultMaximumPayloadSize = 131_072

    /// The largest payload accepted in one frame. Set it to the negotiated MTU for v5.
    /// First Frames always carry exactly 8 bytes and are checked against that instead.
    public var maximumPayloadSize: Int

    public init(maximumPayloadSize: Int = SDLFrameDecoder.defaultMaximumPayloadSize) {
        precondition(maximumPayloadSize >= 8, "a payload limit below 8 bytes cannot carry a First Frame")
        self.maximumPayloadSize = maximumPayloadSize
    }

    /// The most bytes a `ByteToMessageHandler` needs to hold for this decoder: one whole frame.
    public var maximumBufferSize: Int { SDLFrameHeader.v2Size + maximumPayloadSize }

    /// Returns the next whole frame, or `nil` (consuming nothing) when it is not all readable yet.
    /// Errors carry the byte offset relative to the buffer's reader index.
    public mutating func decode(buffer: inout ByteBuffer) throws(SDLProtocolError) -> SDLFrame? {
        var peek = buffer
        guard let header = try peek.readSDLFrameHeader() else { return nil }
        if header.frameType != .first && Int(header.dataSize) > maximumPayloadSize {
            throw SDLProtocolError(
                .payloadTooLarge,
                "data size \(header.dataSize) is above the payload limit \(maximumPayloadSize)",
                offset: 4
            )
        }
        guard let payload = peek.readSlice(length: Int(header.dataSize)) else { return nil }
        buffer = peek
        return SDLFrame(header: header, payload: payload)
    }

    public mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws(SDLProtocolError) -> SDLFrame? {
        try decode(buffer: &buffer)
    }
}

extension SDLFrameHeader {
    /// The payload size an SDL peer sends in one frame before it splits a message into First and
    /// Consecutive Frames (protocol spec §2.4; docs/protocol.md §a, MTU): 1488 for v1/v2, 131072 for v3/v4; for v5 the
    /// StartServiceACK's `mtu`, falling back to 131072.
    public static func defaultMaximumPayloadSize(forVersion version: UInt8) -> Int {
        version <= 2 ? 1488 : 131_072
    }
}
